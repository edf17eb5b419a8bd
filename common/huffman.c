/*
 * Huffman code lengths by the textbook merge of the two rarest nodes,
 * O(n^2) over at most 288 symbols: short enough to need no heap.  A tree
 * deeper than the limit is rebuilt from halved counts (each kept at least
 * 1), which flattens it; deflate's limits (15, and 7 for the code-length
 * code) are reached in a step or two on any real text.
 */
#include "common/huffman.h"

#define MAX_NODES (2 * HUFF_MAX_SYMS)

struct huff_tree {
	uint32_t weight[MAX_NODES];
	int16_t parent[MAX_NODES];
	uint8_t active[MAX_NODES];
};

/* The active node of least weight (ties: the lowest index), or -1. */
static int rarest(const struct huff_tree *t, int nodes)
{
	int best = -1;

	for (int i = 0; i < nodes; i++)
		if (t->active[i] && (best < 0 || t->weight[i] < t->weight[best]))
			best = i;
	return best;
}

/*
 * One tree from f[0..n); the depth of each used symbol into len; the
 * deepest.  The tree is static (4 KiB, too much for a kernel stack): the
 * one compressor (kernel/console/qr_pages.c) runs one stream at a time.
 */
static int build(const uint32_t *f, int n, uint8_t *len)
{
	static struct huff_tree t;
	int nodes = n, deepest = 0;

	for (int i = 0; i < n; i++) {
		t.weight[i] = f[i];
		t.parent[i] = -1;
		t.active[i] = f[i] != 0;
	}
	for (;;) {
		int a = rarest(&t, nodes), b;

		t.active[a] = 0;
		b = rarest(&t, nodes);
		if (b < 0)
			break; /* a is the root */
		t.active[b] = 0;
		t.weight[nodes] = t.weight[a] + t.weight[b];
		t.parent[nodes] = -1;
		t.active[nodes] = 1;
		t.parent[a] = t.parent[b] = (int16_t)nodes;
		nodes++;
	}
	for (int i = 0; i < n; i++) {
		int d = 0;

		for (int k = i; f[i] && t.parent[k] >= 0; k = t.parent[k])
			d++;
		len[i] = (uint8_t)d;
		if (d > deepest)
			deepest = d;
	}
	return deepest;
}

int huff_lengths(const uint32_t *freq, int n, int limit, uint8_t *len)
{
	uint32_t f[HUFF_MAX_SYMS];
	int used = 0;

	if (!freq || !len || n < 2 || n > HUFF_MAX_SYMS || limit < 2 || limit > 15)
		return 0;
	for (int i = 0; i < n; i++) {
		f[i] = freq[i];
		used += f[i] != 0;
	}
	/* Two symbols at least: a one-symbol tree has no code of length 1. */
	for (int i = 0; i < n && used < 2; i++)
		if (!f[i]) {
			f[i] = 1;
			used++;
		}
	while (build(f, n, len) > limit)
		for (int i = 0; i < n; i++)
			if (f[i])
				f[i] = (f[i] >> 1) | 1;
	return 1;
}

void huff_codes(const uint8_t *len, int n, uint16_t *code)
{
	uint16_t count[16] = {0}, next[16];
	uint16_t c = 0;

	for (int i = 0; i < n; i++)
		count[len[i] & 15]++;
	count[0] = 0;
	for (int bits = 1; bits < 16; bits++) {
		c = (uint16_t)((c + count[bits - 1]) << 1);
		next[bits] = c;
	}
	for (int i = 0; i < n; i++)
		code[i] = len[i] ? next[len[i]]++ : 0;
}
