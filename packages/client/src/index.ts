export * from "./ApiClient.ts"
export * from "./OwnerSession.ts"
