/// <reference lib="dom" />
import { createDAppKit } from "@mysten/dapp-kit-core"
import { SuiGrpcClient } from "@mysten/sui/grpc"

/** The network names dApp Kit knows; the gateway reports one of these as `sui:<name>`. */
export type Network = "localnet" | "devnet" | "testnet" | "mainnet"

/**
 * dApp Kit on `chainUrl`: in local mode the gateway's own `/sui` gRPC-web
 * front, in live mode the full node the gateway names in the page. The Slush
 * web wallet is off, since it would load from another origin the page's CSP refuses.
 */
export const makeKit = (chainUrl: string, network: Network) =>
  createDAppKit({
    networks: [network],
    defaultNetwork: network,
    createClient: () => new SuiGrpcClient({ network, baseUrl: chainUrl }),
    slushWalletConfig: null
  })

/** The full node the gateway named in the page (live mode), else its own `/sui`. */
export const chainUrlOf = (document: Document) => {
  const named = document.querySelector<HTMLMetaElement>('meta[name="sui-grpc-url"]')?.content ?? ""
  return named === "" ? `${document.location.origin}/sui` : named
}

export type Kit = ReturnType<typeof makeKit>
