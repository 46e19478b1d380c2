/** A horizontal bar chart of throughput as plain SVG, so a person sees the table at a glance. */
export const barChart = (title: string, rows: ReadonlyArray<{ readonly label: string; readonly value: number }>) => {
  const width = 760
  const barArea = 420
  const rowHeight = 28
  const max = Math.max(1, ...rows.map((r) => r.value))
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;")
  const bars = rows.map((r, i) => {
    const y = 40 + i * rowHeight
    const w = Math.max(1, Math.round((r.value / max) * barArea))
    return [
      `<text x="10" y="${y + 17}" font-size="13">${escape(r.label)}</text>`,
      `<rect x="300" y="${y + 4}" width="${w}" height="18" fill="#4f7fd9"/>`,
      `<text x="${306 + w}" y="${y + 17}" font-size="12">${Math.round(r.value).toLocaleString("en")}/s</text>`
    ].join("")
  })
  const height = 60 + rows.length * rowHeight
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="10" y="24" font-size="16" font-weight="bold">${escape(title)}</text>${bars.join("")}</svg>\n`
}
