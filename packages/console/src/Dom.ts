/// <reference lib="dom" />

type Child = Node | string | null | undefined | false
type Attributes = Record<string, string | boolean | number | EventListener | undefined>

/**
 * A DOM element from a tag, attributes and children: the page's only
 * rendering primitive. Text goes in as text nodes, never as HTML, so nothing
 * the API returns can inject markup.
 */
export const h = <K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: ReadonlyArray<Child>) => {
  const element = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue
    if (typeof value === "function") element.addEventListener(name.replace(/^on/, ""), value)
    else if (value === true) element.setAttribute(name, "")
    else element.setAttribute(name, String(value))
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    element.append(child)
  }
  return element
}

/** Replaces an element's children. */
export const fill = (parent: Element, ...children: ReadonlyArray<Child>) => {
  parent.replaceChildren(...children.filter((c): c is Node | string => c !== null && c !== undefined && c !== false))
}
