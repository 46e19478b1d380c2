/// <reference lib="dom" />
import type { ConsoleContext } from "./ConsoleContext.ts"
import { fill, h } from "./Dom.ts"

/**
 * Connect, Sign-In-With-Sui and sign-out. The session token lives in this
 * page's memory only: a reload signs out, and nothing stores it.
 */
export const sessionPanel = (context: ConsoleContext, connectButton: HTMLElement, onChange: (signedIn: boolean) => void) => {
  const { api, wallet, notices } = context
  const who = h("p", { id: "who" })
  const signInButton = h("button", { type: "button", id: "sign-in" }, "Sign in with your wallet")
  const signOutButton = h("button", { type: "button", id: "sign-out", class: "secondary" }, "Sign out")

  const render = () => {
    const address = wallet.address()
    const signedIn = api.signedIn()
    fill(who, address === null ? "No wallet connected." : signedIn ? `Signed in as ${address}` : `Connected as ${address}; not signed in.`)
    signInButton.hidden = address === null || signedIn
    signOutButton.hidden = !signedIn
  }

  const signOutLocally = () => {
    if (!api.signedIn()) return
    api.useSession(null)
    onChange(false)
  }

  signInButton.addEventListener("click", () =>
    notices.run("Signing in", async () => {
      const address = wallet.requireAddress()
      const challenge = await api.challenge(address)
      const signature = await wallet.signMessage(challenge.message)
      const session = await api.session(challenge.message, signature)
      api.useSession(session.token)
      render()
      onChange(true)
    }, signInButton))

  signOutButton.addEventListener("click", () =>
    notices.run("Signing out", async () => {
      try {
        await api.signOut()
      } finally {
        signOutLocally()
        render()
      }
    }, signOutButton))

  api.onSessionEnded(() => {
    onChange(false)
    render()
  })

  // Another account or no wallet: the session belongs to the address that signed in, so it ends.
  let lastAddress = wallet.address()
  wallet.kit.stores.$connection.subscribe((connection) => {
    const address = connection.account?.address ?? null
    if (address !== lastAddress) signOutLocally()
    lastAddress = address
    render()
  })
  render()

  return h("section", { id: "session", "aria-labelledby": "session-title" },
    h("h2", { id: "session-title" }, "Wallet and session"),
    h("div", { class: "row" }, connectButton, signInButton, signOutButton),
    who)
}
