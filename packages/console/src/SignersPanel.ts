/// <reference lib="dom" />
import type { ConsoleContext } from "./ConsoleContext.ts"
import { fill, h } from "./Dom.ts"
import { signerCard } from "./SignerCard.ts"

/** The owner's delegated signers, newest first, one card each. */
export const signersPanel = (context: ConsoleContext) => {
  const list = h("div", { id: "signer-list" })
  const more = h("button", { type: "button", class: "secondary", hidden: true }, "More signers")
  let cursor: string | null = null

  const load = async (after: string | null) => {
    const page = await context.api.signers(after)
    const cards = page.delegatedSigners.map((view) => signerCard(context, view))
    list.append(...cards.map((card) => card.element))
    await Promise.all(cards.map((card) => card.render()))
    cursor = page.nextCursor
    more.hidden = cursor === null
  }

  const refresh = async () => {
    fill(list)
    await load(null)
    if (list.childElementCount === 0) list.append(h("p", {}, "No delegated signers yet."))
  }

  more.addEventListener("click", () => context.notices.run("Loading more signers", () => load(cursor), more))

  const element = h("section", { id: "signers", "aria-labelledby": "signers-title" },
    h("h2", { id: "signers-title" }, "Delegated signers"), list, more)
  return { element, refresh }
}
