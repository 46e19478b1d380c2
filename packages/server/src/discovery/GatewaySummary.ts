/** What every agent document calls the gateway. */
export const TITLE = "Sui delegated-signer gateway"

/** What every agent document says the gateway is for, in one paragraph. */
export const SUMMARY =
  "Paid HTTP APIs for agents. Read a service's terms from /v1/services/{id}, check them against your owner's policy, pay the exact price on Sui through your delegated grant, and call resourceUrl with the payment."
