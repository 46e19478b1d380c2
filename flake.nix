{
  description = "Sui delegated-signer gateway: dev shell with Node 22, PostgreSQL 15 and the Sui CLI";

  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";

  outputs = { self, nixpkgs }:
    let
      systems = [ "x86_64-linux" "aarch64-linux" "x86_64-darwin" "aarch64-darwin" ];
      forAll = f: nixpkgs.lib.genAttrs systems (system: f nixpkgs.legacyPackages.${system});
      # packages/chain/move needs the package system of Sui 1.63 (implicit framework
      # dependencies, no [addresses]) and the framework natives it calls
      # (`derived_object::claim`, `type_name::with_defining_ids`, newer than 1.58).
      minimumSui = "1.63.0";
      sui = pkgs:
        assert pkgs.lib.assertMsg (pkgs.lib.versionAtLeast pkgs.sui.version minimumSui)
          "nixpkgs' sui is ${pkgs.sui.version}; packages/chain/move needs ${minimumSui} or newer: update the nixpkgs input (nix flake update)";
        pkgs.sui;
    in {
      devShells = forAll (pkgs: {
        default = pkgs.mkShell {
          # sui provides `sui move build` and `sui move test` for packages/chain/move.
          packages = [ pkgs.nodejs_22 pkgs.postgresql_15 (sui pkgs) ];
          shellHook = ''
            export TEST_DATABASE_URL=''${TEST_DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
          '';
        };
      });
    };
}
