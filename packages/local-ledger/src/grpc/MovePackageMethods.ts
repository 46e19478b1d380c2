import { GrpcTypes } from "@mysten/sui/grpc"
import { normalizeSuiAddress } from "@mysten/sui/utils"
import { Effect } from "effect"
import { type FunctionName, Functions, isFunctionName, MODULE, type SpendAccountPackage } from "@gateway/domain/chain/SpendAccountModule"
import { LocalLedger } from "../LocalLedger.ts"
import { GrpcFailure } from "./GrpcFailure.ts"
import { type GrpcMethod, unary } from "./GrpcMethod.ts"

const { OpenSignatureBody_Type: Body, OpenSignature_Reference: Reference, Ability } = GrpcTypes

type Signature = GrpcTypes.OpenSignature
type SignatureBody = GrpcTypes.OpenSignatureBody

const scalar = (type: GrpcTypes.OpenSignatureBody_Type): SignatureBody => ({ type, typeParameterInstantiation: [] })
const datatype = (typeName: string, parameters: ReadonlyArray<SignatureBody> = []): SignatureBody => ({
  type: Body.DATATYPE,
  typeName,
  typeParameterInstantiation: [...parameters]
})
const T0: SignatureBody = { type: Body.TYPE_PARAMETER, typeParameter: 0, typeParameterInstantiation: [] }
const byValue = (body: SignatureBody): Signature => ({ body })
const mutable = (body: SignatureBody): Signature => ({ reference: Reference.MUTABLE, body })
const immutable = (body: SignatureBody): Signature => ({ reference: Reference.IMMUTABLE, body })

/** Each argument kind of the module description as the Move signature it stands for. */
const parameter = (originalId: string, kind: (typeof Functions)[FunctionName]["parameters"][number]): Signature => {
  const own = (name: string) => `${originalId}::${MODULE}::${name}`
  switch (kind) {
    case "registry":
      return immutable(datatype(own("Registry")))
    case "registry_mut":
      return mutable(datatype(own("Registry")))
    case "admin_cap":
      return immutable(datatype(own("AdminCap")))
    case "pool_mut":
      return mutable(datatype(own("Pool"), [T0]))
    case "grant_mut":
      return mutable(datatype(own("Grant")))
    case "grant":
      return immutable(datatype(own("Grant")))
    case "session_mut":
      return mutable(datatype(own("Session"), [T0]))
    case "session_by_value":
      return byValue(datatype(own("Session"), [T0]))
    case "coin":
      return byValue(datatype("0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin", [T0]))
    case "clock":
      return immutable(datatype("0x0000000000000000000000000000000000000000000000000000000000000002::clock::Clock"))
    case "u8":
      return byValue(scalar(Body.U8))
    case "u64":
      return byValue(scalar(Body.U64))
    case "address":
      return byValue(scalar(Body.ADDRESS))
    case "vector<u8>":
      return byValue({ type: Body.VECTOR, typeParameterInstantiation: [scalar(Body.U8)] })
    case "vector<u64>":
      return byValue({ type: Body.VECTOR, typeParameterInstantiation: [scalar(Body.U64)] })
    case "vector<address>":
      return byValue({ type: Body.VECTOR, typeParameterInstantiation: [scalar(Body.ADDRESS)] })
  }
}

/** The functions declared without a `TxContext` parameter: they need no sender and create nothing. */
const WITHOUT_CONTEXT: ReadonlySet<FunctionName> = new Set(["forget_nonce", "set_version", "migrate_pool", "migrate_grant", "migrate_session"])

/** What a function returns: `withdraw` hands its `Coin<T>` to the transaction. */
const returnsOf = (name: FunctionName): Array<Signature> =>
  name === "withdraw" ? [byValue(datatype("0x0000000000000000000000000000000000000000000000000000000000000002::coin::Coin", [T0]))] : []

const TX_CONTEXT = datatype("0x0000000000000000000000000000000000000000000000000000000000000002::tx_context::TxContext")

const functionDescriptor = (originalId: string, name: FunctionName): GrpcTypes.FunctionDescriptor => {
  const spec = Functions[name]
  return {
    name,
    visibility: GrpcTypes.FunctionDescriptor_Visibility.PUBLIC,
    isEntry: false,
    typeParameters: Array.from({ length: spec.typeParameters }, () => ({ constraints: [] })),
    parameters: [
      ...spec.parameters.map((kind) => parameter(originalId, kind)),
      ...(WITHOUT_CONTEXT.has(name) ? [] : [mutable(TX_CONTEXT)])
    ],
    returns: returnsOf(name)
  }
}

const ID = datatype("0x0000000000000000000000000000000000000000000000000000000000000002::object::UID")

/** The module's structs, fields in declaration order (as `Structs` lays them out). */
const datatypes = (originalId: string): ReadonlyArray<GrpcTypes.DatatypeDescriptor> => {
  const own = (name: string) => `${originalId}::${MODULE}::${name}`
  const struct = (name: string, abilities: ReadonlyArray<GrpcTypes.Ability>, typeParameters: number, fields: ReadonlyArray<readonly [string, SignatureBody]>): GrpcTypes.DatatypeDescriptor => ({
    typeName: own(name),
    definingId: originalId,
    module: MODULE,
    name,
    abilities: [...abilities],
    typeParameters: Array.from({ length: typeParameters }, () => ({ constraints: [], isPhantom: true })),
    kind: GrpcTypes.DatatypeDescriptor_DatatypeKind.STRUCT,
    fields: fields.map(([field, type], position) => ({ name: field, position, type })),
    variants: []
  })
  const u64 = scalar(Body.U64)
  const address = scalar(Body.ADDRESS)
  const bool = scalar(Body.BOOL)
  return [
    struct("Registry", [Ability.KEY], 0, [["id", ID], ["version", u64]]),
    struct("AdminCap", [Ability.KEY, Ability.STORE], 0, [["id", ID]]),
    struct("Window", [Ability.COPY, Ability.DROP, Ability.STORE], 0, [
      ["kind", scalar(Body.U8)],
      ["period_ms", u64],
      ["limit", u64],
      ["start_ms", u64],
      ["spent", u64]
    ]),
    struct("PoolKey", [Ability.COPY, Ability.DROP, Ability.STORE], 1, [["owner", address]]),
    struct("Pool", [Ability.KEY], 1, [
      ["id", ID],
      ["version", u64],
      ["owner", address],
      ["balance", datatype("0x0000000000000000000000000000000000000000000000000000000000000002::balance::Balance", [T0])],
      ["nonces", datatype("0x0000000000000000000000000000000000000000000000000000000000000002::table::Table", [
        { type: Body.VECTOR, typeParameterInstantiation: [scalar(Body.U8)] },
        u64
      ])]
    ]),
    struct("Grant", [Ability.KEY], 0, [
      ["id", ID],
      ["version", u64],
      ["pool_id", address],
      ["owner", address],
      ["delegate", address],
      ["session_cap", u64],
      ["spent", u64],
      ["max_per_payment", u64],
      ["expiry_ms", u64],
      ["window", datatype(own("Window"))],
      ["recipients", { type: Body.VECTOR, typeParameterInstantiation: [address] }],
      ["paused", bool],
      ["revoked", bool],
      ["policy_ids", { type: Body.VECTOR, typeParameterInstantiation: [u64] }],
      ["kind", scalar(Body.U8)]
    ]),
    struct("Session", [Ability.KEY], 1, [
      ["id", ID],
      ["version", u64],
      ["grant_id", address],
      ["pool_id", address],
      ["owner", address],
      ["delegate", address],
      ["payee", address],
      ["operator", address],
      ["voucher_key", { type: Body.VECTOR, typeParameterInstantiation: [scalar(Body.U8)] }],
      ["balance", datatype("0x0000000000000000000000000000000000000000000000000000000000000002::balance::Balance", [T0])],
      ["deposit", u64],
      ["claimed", u64],
      ["expiry_ms", u64],
      ["close_at_ms", u64],
      ["window_start_ms", u64],
      ["window_charged", u64]
    ])
  ]
}

const notFound = (message: string) => new GrpcFailure({ code: "NOT_FOUND", message })

/** The package is known by both its ids: calls name the published-at one, types the original. */
const packageOf = (pkg: SpendAccountPackage, id: string | undefined) =>
  id !== undefined && [pkg.originalId, pkg.publishedAt].map((known) => normalizeSuiAddress(known)).includes(normalizeSuiAddress(id))
    ? Effect.succeed(pkg)
    : Effect.fail(notFound(`package ${id ?? "(none)"} not found`))

const moduleOf = (name: string | undefined) => (name === MODULE ? Effect.void : Effect.fail(notFound(`module ${name ?? "(none)"} not found`)))

export const movePackageMethods: ReadonlyArray<GrpcMethod> = [
  unary(GrpcTypes.MovePackageService, "GetPackage", GrpcTypes.GetPackageRequest, GrpcTypes.GetPackageResponse, (request) =>
    Effect.gen(function*(): Effect.fn.Return<GrpcTypes.GetPackageResponse, GrpcFailure, LocalLedger> {
      const pkg = yield* packageOf((yield* LocalLedger).config.pkg, request.packageId)
      const functions = Object.keys(Functions).filter(isFunctionName).map((name) => functionDescriptor(pkg.originalId, name))
      return {
        package: {
          storageId: normalizeSuiAddress(pkg.publishedAt),
          originalId: normalizeSuiAddress(pkg.originalId),
          version: 1n,
          modules: [{ name: MODULE, datatypes: [...datatypes(pkg.originalId)], functions }],
          typeOrigins: datatypes(pkg.originalId).map((d) => ({ moduleName: MODULE, ...(d.name === undefined ? {} : { datatypeName: d.name }), packageId: pkg.originalId })),
          linkage: []
        }
      }
    })),
  unary(GrpcTypes.MovePackageService, "GetFunction", GrpcTypes.GetFunctionRequest, GrpcTypes.GetFunctionResponse, (request) =>
    Effect.gen(function*() {
      const pkg = yield* packageOf((yield* LocalLedger).config.pkg, request.packageId)
      yield* moduleOf(request.moduleName)
      const name = request.name ?? ""
      if (!isFunctionName(name)) return yield* notFound(`function ${MODULE}::${name} not found`)
      return { function: functionDescriptor(pkg.originalId, name) }
    })),
  unary(GrpcTypes.MovePackageService, "GetDatatype", GrpcTypes.GetDatatypeRequest, GrpcTypes.GetDatatypeResponse, (request) =>
    Effect.gen(function*() {
      const pkg = yield* packageOf((yield* LocalLedger).config.pkg, request.packageId)
      yield* moduleOf(request.moduleName)
      const found = datatypes(pkg.originalId).find((d) => d.name === request.name)
      if (found === undefined) return yield* notFound(`datatype ${MODULE}::${request.name ?? ""} not found`)
      return { datatype: found }
    }))
]
