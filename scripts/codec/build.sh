#!/usr/bin/env bash
# Builds the picture codec (codec.c with libjpeg-turbo and stb_image) to WebAssembly and writes it,
# base64, into nodes/ImageInference/picture/codec/codecWasm.ts. Run it only to change the codec:
# the generated file is committed, and neither the package nor its tests build it.
# Needs Debian 12 (bookworm): apt-get install clang lld wasi-libc libclang-rt-dev-wasm32 libstb-dev cmake,
# and deb-src in apt's sources for libjpeg-turbo's source (apt-get source).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
LIBJPEG_TURBO=2.1.5
for tool in clang wasm-ld cmake; do
	command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing (apt-get install clang lld wasi-libc libclang-rt-dev-wasm32 libstb-dev cmake)" >&2; exit 1; }
done
[ -f /usr/include/stb/stb_image.h ] || { echo "build.sh: stb_image.h is missing (apt-get install libstb-dev)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$work" && apt-get source --download-only "libjpeg-turbo=1:$LIBJPEG_TURBO-2" >/dev/null) ||
	{ echo "build.sh: apt-get source libjpeg-turbo failed (add deb-src to apt's sources and apt-get update)" >&2; exit 1; }
tar -xzf "$work/libjpeg-turbo_$LIBJPEG_TURBO.orig.tar.gz" -C "$work"

mkdir "$work/build"
(cd "$work/build" && cmake "$work/libjpeg-turbo-$LIBJPEG_TURBO" \
	-DCMAKE_SYSTEM_NAME=Generic -DCMAKE_SYSTEM_PROCESSOR=wasm32 -DCMAKE_TRY_COMPILE_TARGET_TYPE=STATIC_LIBRARY \
	-DCMAKE_C_COMPILER=clang -DCMAKE_C_FLAGS="--target=wasm32-wasi -O2 -fvisibility=hidden" \
	-DCMAKE_BUILD_TYPE=Release -DCMAKE_C_FLAGS_RELEASE="" \
	-DWITH_SIMD=0 -DENABLE_SHARED=0 -DWITH_TURBOJPEG=0 -DWITH_JAVA=0 -DWITH_ARITH_DEC=0 -DWITH_ARITH_ENC=0 >/dev/null &&
	make jpeg-static >/dev/null)

clang --target=wasm32-wasi -O2 -mexec-model=reactor \
	-I "$work/libjpeg-turbo-$LIBJPEG_TURBO" -I "$work/build" \
	-Wl,--strip-all -Wl,--gc-sections -Wl,-z,stack-size=1048576 \
	-o "$work/codec.wasm" "$here/codec.c" "$work/build/libjpeg.a"

notice="$root/nodes/ImageInference/picture/codec/NOTICE.md"
{
	echo '# Notices of the picture codec'
	echo
	echo 'The picture codec (`codecWasm.ts`, WebAssembly built by `scripts/codec/build.sh`) contains'
	echo 'libjpeg-turbo and stb_image. This software is based in part on the work of the Independent JPEG Group.'
	echo
	echo '## libjpeg-turbo'
	echo
	cat "$work/libjpeg-turbo-$LIBJPEG_TURBO/LICENSE.md"
	echo
	echo '### The IJG licence (README.ijg, LEGAL ISSUES)'
	echo
	echo '```'
	sed -n '/^LEGAL ISSUES$/,/^REFERENCES$/p' "$work/libjpeg-turbo-$LIBJPEG_TURBO/README.ijg" | sed '$d'
	echo '```'
	echo
	echo '## stb_image'
	echo
	echo '```'
	sed -n '/^This software is available under 2 licenses/,/^WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.$/p' /usr/include/stb/stb_image.h
	echo '```'
} >"$notice"

node "$here/embed.mjs" "$work/codec.wasm" "$root/nodes/ImageInference/picture/codec/codecWasm.ts" \
	"libjpeg-turbo $LIBJPEG_TURBO (Debian $(cd "$work" && ls libjpeg-turbo_*.dsc | sed 's/libjpeg-turbo_\(.*\)\.dsc/\1/')), stb_image (Debian libstb-dev $(dpkg-query -W -f='${Version}' libstb-dev)), $(clang --version | head -1)"
