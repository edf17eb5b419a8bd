/*
 * boot/sha256.c against the FIPS 180-4 examples (NIST "Example Algorithm"
 * SHA256.pdf: one block, two blocks, long message) and against sha256sum for
 * every length 0..300, which crosses each padding boundary.  TAP output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "boot/sha256.h"

static int n, failed;

static void hex(const uint8_t *d, char *out)
{
	for (int i = 0; i < SHA256_DIGEST_SIZE; i++)
		sprintf(out + 2 * i, "%02x", d[i]);
}

static void check(const char *name, const char *got, const char *want)
{
	n++;
	if (strcmp(got, want)) {
		failed++;
		printf("not ok %d - %s\n# got  %s\n# want %s\n", n, name, got, want);
	} else {
		printf("ok %d - %s\n", n, name);
	}
}

static void vec(const char *name, const char *msg, const char *want)
{
	uint8_t d[SHA256_DIGEST_SIZE];
	char h[65];

	sha256(msg, strlen(msg), d);
	hex(d, h);
	check(name, h, want);
}

int main(void)
{
	static char mill[1000000];
	struct sha256_ctx c;
	uint8_t d[SHA256_DIGEST_SIZE], buf[300];
	char h[65], want[65], cmd[64];
	int bad = 0;

	vec("FIPS 180-4 one-block \"abc\"", "abc",
	    "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	vec("FIPS 180-4 two-block message",
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	vec("empty message", "",
	    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	memset(mill, 'a', sizeof(mill));
	sha256(mill, sizeof(mill), d);
	hex(d, h);
	check("one million 'a'", h,
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	/* The same million, fed in odd-sized pieces: the buffering path. */
	sha256_init(&c);
	for (size_t off = 0, step = 1; off < sizeof(mill); off += step, step = step % 97 + 1)
		sha256_update(&c, mill + off,
			      off + step > sizeof(mill) ? sizeof(mill) - off : step);
	sha256_final(&c, d);
	hex(d, h);
	check("one million 'a' in pieces", h,
	      "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 131 + 7);
	for (unsigned len = 0; len <= sizeof(buf) && !bad; len++) {
		FILE *p;

		char path[] = "/tmp/sha256-XXXXXX";
		int fd = mkstemp(path);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "wb");

		if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
			printf("# cannot write %s\n", path);
			bad = 1;
			break;
		}
		snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
		p = popen(cmd, "r");
		if (!p || fscanf(p, "%64s", want) != 1)
			bad = 1;
		if (p)
			pclose(p);
		remove(path);
		sha256(buf, len, d);
		hex(d, h);
		if (!bad && strcmp(h, want)) {
			printf("# length %u: got %s want %s\n", len, h, want);
			bad = 1;
		}
	}
	n++;
	printf("%sok %d - agrees with sha256sum for lengths 0..%zu\n", bad ? "not " : "", n,
	       sizeof(buf));
	failed += bad;
	printf("1..%d\n", n);
	return failed ? 1 : 0;
}
