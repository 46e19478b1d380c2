/**
 * Whether a seller's answer is one a sign-first payment is settled on (docs/paid-calls.md, "Sign-first"): the
 * seller did the work or answered the request as asked. 2xx and 3xx settle. 4xx settle too (the seller judged a
 * request the payer made: a 404 for an unknown id is an answer), except 408 and 429, which say the seller did not
 * get to the request. 5xx, timeouts, refused connections and over-size answers never settle: nothing is charged.
 */
export const sellerAnswerSettles = (status: number) => status >= 200 && status < 500 && status !== 408 && status !== 429
