#!/usr/bin/env bash
# Creates a key pair to sign the aslrbench loader with (Secure Boot).
#
# Usage: scripts/keys.sh [DIR]
#
# Writes DIR/aslrbench.key (RSA 2048, no passphrase: keep DIR private),
# DIR/aslrbench.crt (PEM, self-signed, 10 years) and DIR/aslrbench.cer (the
# same certificate in DER, what MokManager and firmware setup menus enroll).
# DIR defaults to ~/.aslrbench-keys; an existing key is never overwritten.
# Never put the key in the repository.  docs/secure-boot.md says what to do
# with them: make iso SIGN_KEY=DIR/aslrbench.key SIGN_CERT=DIR/aslrbench.crt
set -euo pipefail

case ${1:-} in
-h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
dir=${1:-$HOME/.aslrbench-keys}
mkdir -p "$dir"
chmod 700 "$dir"
if [ -e "$dir/aslrbench.key" ]; then
	echo "keys: $dir/aslrbench.key exists; keeping it" >&2
else
	(
		umask 077
		openssl req -new -x509 -newkey rsa:2048 -sha256 -days 3650 -nodes \
			-subj "/CN=aslrbench loader signing key ($(hostname 2>/dev/null || echo host))/" \
			-keyout "$dir/aslrbench.key" -out "$dir/aslrbench.crt" 2>/dev/null
	)
fi
openssl x509 -in "$dir/aslrbench.crt" -outform der -out "$dir/aslrbench.cer"
echo "keys: $dir/aslrbench.key, $dir/aslrbench.crt, $dir/aslrbench.cer"
