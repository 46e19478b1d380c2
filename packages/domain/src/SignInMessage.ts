/**
 * The Sign-In-With-Sui text, laid out as CAIP-122 / EIP-4361 so wallets render
 * it as a sign-in request. `parse` is the exact inverse of `render`: the server
 * re-parses what was signed and compares every field with its stored challenge.
 */
export interface SignInFields {
  readonly domain: string
  readonly address: string
  readonly uri: string
  readonly chainId: string
  readonly nonce: string
  readonly issuedAt: string
  readonly expirationTime: string
}

export const STATEMENT =
  "Sign in to the delegated-signer gateway. This session only lets you prepare and finalize; grants change only through transactions you sign."

export const render = (f: SignInFields): string =>
  [
    `${f.domain} wants you to sign in with your Sui account:`,
    f.address,
    "",
    STATEMENT,
    "",
    `URI: ${f.uri}`,
    "Version: 1",
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
    `Expiration Time: ${f.expirationTime}`
  ].join("\n")

const field = (line: string | undefined, label: string): string | undefined =>
  line !== undefined && line.startsWith(`${label}: `) ? line.slice(label.length + 2) : undefined

export const parse = (text: string): SignInFields | undefined => {
  const lines = text.split("\n")
  if (lines.length !== 11) return undefined
  const header = /^(.+) wants you to sign in with your Sui account:$/.exec(lines[0] ?? "")
  const domain = header?.[1]
  const address = lines[1]
  const uri = field(lines[5], "URI")
  const chainId = field(lines[7], "Chain ID")
  const nonce = field(lines[8], "Nonce")
  const issuedAt = field(lines[9], "Issued At")
  const expirationTime = field(lines[10], "Expiration Time")
  if (
    domain === undefined || address === undefined || uri === undefined || chainId === undefined ||
    nonce === undefined || issuedAt === undefined || expirationTime === undefined ||
    lines[2] !== "" || lines[3] !== STATEMENT || lines[4] !== "" || lines[6] !== "Version: 1"
  ) return undefined
  const fields = { domain, address, uri, chainId, nonce, issuedAt, expirationTime }
  return render(fields) === text ? fields : undefined
}
