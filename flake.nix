{
  description = "Sui delegated-signer gateway: dev shell with Node 22, PostgreSQL 15 and the Sui CLI";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
    in {
      devShells = forAll (pkgs: {
        default = pkgs.mkShell {
          # sui provides `sui move test` for packages/chain/move.
          packages = [ pkgs.nodejs_22 pkgs.postgresql_15 pkgs.sui ];
          shellHook = ''
            export TEST_DATABASE_URL=''${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
          '';
        };
      });
    };
}
