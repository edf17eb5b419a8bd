/*
 * zlib stream (RFC 1950) of deflate blocks (RFC 1951): LZ77 matches found
 * greedily with one step of lazy evaluation over a hash chain, gathered a
 * block at a time, each block written with the fixed Huffman codes or
 * with its own (dynamic) codes, whichever is shorter.  Dynamic codes take
 * a run's records about a fifth below the fixed ones: the JSON's few
 * characters get short codes.
 *
 * Sections: the checksums, the bit writer (deflate packs bits from the
 * least significant end; Huffman codes go most significant bit first, so
 * they are reversed), the length and distance codes, a block's two
 * encodings, the matcher.  Every write checks the room left, so a short
 * buffer gives 0, never an overrun.
 */
#include "common/deflate.h"
#include "common/huffman.h"

/* ---- checksums ---- */

uint32_t deflate_adler32(const uint8_t *p, size_t n)
{
	uint32_t a = 1, b = 0;

	for (size_t i = 0; i < n; i++) {
		a = (a + p[i]) % 65521;
		b = (b + a) % 65521;
	}
	return b << 16 | a;
}

uint32_t deflate_crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;

	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c >> 1 ^ (0xedb88320u & -(c & 1));
	}
	return ~c;
}

/* ---- the bit writer ---- */

struct bitout {
	uint8_t *out;
	size_t cap, len;
	uint32_t acc;
	int nacc;
	int overflow;
};

static void put_byte(struct bitout *b, uint8_t v)
{
	if (b->len < b->cap)
		b->out[b->len++] = v;
	else
		b->overflow = 1;
}

/* n <= 24 bits, least significant first. */
static void put_lsb(struct bitout *b, uint32_t v, int n)
{
	b->acc |= (v & ((1u << n) - 1)) << b->nacc;
	b->nacc += n;
	while (b->nacc >= 8) {
		put_byte(b, (uint8_t)b->acc);
		b->acc >>= 8;
		b->nacc -= 8;
	}
}

/* A Huffman code of n bits, most significant bit first. */
static void put_code(struct bitout *b, uint32_t code, int n)
{
	uint32_t r = 0;

	for (int i = 0; i < n; i++)
		r |= (code >> i & 1) << (n - 1 - i);
	put_lsb(b, r, n);
}

/* ---- length and distance codes ---- */

static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,	 9,   10,  11, 13,
				      15, 17, 19, 23,  27,  31,	 35,  43,  51, 59,
				      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
	1,   2,	  3,   4,   5,	 7,    9,    13,   17,	 25,   33,   49,   65,	  97,	 129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};

static int len_code(unsigned len)
{
	int l = 28;

	while (len_base[l] > len)
		l--;
	return l;
}

static int dist_code(unsigned dist)
{
	int d = 29;

	while (dist_base[d] > dist)
		d--;
	return d;
}

static int dist_extra(int d)
{
	return d < 4 ? 0 : d / 2 - 1;
}

/* ---- a block: its symbols' codes, fixed or its own ---- */

#define NLIT  286 /* literal/length symbols in use (286, 287 never occur) */
#define NDIST 30
#define NCL   19 /* code-length symbols */

/* A block's codes: lengths and codes per symbol. */
struct codes {
	uint8_t lit_len[NLIT + 2], dist_len[NDIST];
	uint16_t lit_code[NLIT + 2], dist_code[NDIST];
};

static void fixed_codes(struct codes *c)
{
	for (int i = 0; i < NLIT + 2; i++)
		c->lit_len[i] = i < 144 ? 8 : i < 256 ? 9 : i < 280 ? 7 : 8;
	for (int i = 0; i < NDIST; i++)
		c->dist_len[i] = 5;
	huff_codes(c->lit_len, NLIT + 2, c->lit_code);
	huff_codes(c->dist_len, NDIST, c->dist_code);
}

/* The bits the block's tokens take with these codes (the header not counted). */
static uint64_t data_bits(const struct deflate_work *w, const struct codes *c)
{
	uint64_t bits = c->lit_len[256];

	for (unsigned i = 0; i < w->ntok; i++) {
		unsigned sym = w->tok_sym[i];

		if (sym < 256) {
			bits += c->lit_len[sym];
		} else {
			int l = len_code(sym - 256), d = dist_code(w->tok_dist[i]);

			bits += c->lit_len[257 + l] + len_extra[l] + c->dist_len[d] +
				(unsigned)dist_extra(d);
		}
	}
	return bits;
}

static void put_tokens(struct bitout *b, const struct deflate_work *w, const struct codes *c)
{
	for (unsigned i = 0; i < w->ntok; i++) {
		unsigned sym = w->tok_sym[i], dist = w->tok_dist[i];
		int l, d;

		if (sym < 256) {
			put_code(b, c->lit_code[sym], c->lit_len[sym]);
			continue;
		}
		l = len_code(sym - 256);
		d = dist_code(dist);
		put_code(b, c->lit_code[257 + l], c->lit_len[257 + l]);
		put_lsb(b, sym - 256 - len_base[l], len_extra[l]);
		put_code(b, c->dist_code[d], c->dist_len[d]);
		put_lsb(b, dist - dist_base[d], dist_extra(d));
	}
	put_code(b, c->lit_code[256], c->lit_len[256]);
}

/* The block's own codes from its symbol counts. */
static void dynamic_codes(const struct deflate_work *w, struct codes *c)
{
	uint32_t lf[NLIT] = {0}, df[NDIST] = {0};

	lf[256] = 1;
	for (unsigned i = 0; i < w->ntok; i++) {
		unsigned sym = w->tok_sym[i];

		if (sym < 256) {
			lf[sym]++;
		} else {
			lf[257 + len_code(sym - 256)]++;
			df[dist_code(w->tok_dist[i])]++;
		}
	}
	huff_lengths(lf, NLIT, 15, c->lit_len);
	c->lit_len[NLIT] = c->lit_len[NLIT + 1] = 0;
	huff_lengths(df, NDIST, 15, c->dist_len);
	huff_codes(c->lit_len, NLIT + 2, c->lit_code);
	huff_codes(c->dist_len, NDIST, c->dist_code);
}

/*
 * The code lengths of both alphabets as code-length symbols (RFC 1951
 * 3.2.7): 0-15 a length, 16 the previous one 3-6 times, 17 zeros 3-10
 * times, 18 zeros 11-138 times; the repeat count in rep[].
 */
static int rle_lengths(const uint8_t *lens, int n, uint8_t *sym, uint8_t *rep)
{
	int k = 0;

	for (int i = 0; i < n;) {
		int run = 1;

		while (i + run < n && lens[i + run] == lens[i])
			run++;
		if (lens[i] == 0 && run >= 3) {
			run = run > 138 ? 138 : run;
			sym[k] = run >= 11 ? 18 : 17;
			rep[k++] = (uint8_t)run;
		} else if (lens[i] && run >= 4) {
			run = run > 7 ? 7 : run;
			sym[k] = lens[i];
			rep[k++] = 0;
			sym[k] = 16;
			rep[k++] = (uint8_t)(run - 1);
		} else {
			run = 1;
			sym[k] = lens[i];
			rep[k++] = 0;
		}
		i += run;
	}
	return k;
}

/* The order the code-length code's own lengths are sent in. */
static const uint8_t cl_order[NCL] = {16, 17, 18, 0, 8,	 7, 9,	6, 10, 5,
				      11, 4,  12, 3, 13, 2, 14, 1, 15};

/* A dynamic block's header: the counts, then the lengths, coded. */
struct dyn_header {
	int hlit, hdist, hclen, nsym;
	uint8_t all[NLIT + NDIST], sym[NLIT + NDIST], rep[NLIT + NDIST];
	uint8_t cl_len[NCL];
	uint16_t cl_code[NCL];
};

static uint64_t plan_header(const struct codes *c, struct dyn_header *h)
{
	uint32_t cf[NCL] = {0};
	uint64_t bits = 5 + 5 + 4;

	h->hlit = NLIT;
	while (h->hlit > 257 && !c->lit_len[h->hlit - 1])
		h->hlit--;
	h->hdist = NDIST;
	while (h->hdist > 1 && !c->dist_len[h->hdist - 1])
		h->hdist--;
	for (int i = 0; i < h->hlit; i++)
		h->all[i] = c->lit_len[i];
	for (int i = 0; i < h->hdist; i++)
		h->all[h->hlit + i] = c->dist_len[i];
	h->nsym = rle_lengths(h->all, h->hlit + h->hdist, h->sym, h->rep);
	for (int i = 0; i < h->nsym; i++)
		cf[h->sym[i]]++;
	huff_lengths(cf, NCL, 7, h->cl_len);
	huff_codes(h->cl_len, NCL, h->cl_code);
	h->hclen = NCL;
	while (h->hclen > 4 && !h->cl_len[cl_order[h->hclen - 1]])
		h->hclen--;
	bits += 3 * (uint64_t)h->hclen;
	for (int i = 0; i < h->nsym; i++)
		bits += h->cl_len[h->sym[i]] + (h->sym[i] == 16	  ? 2
						: h->sym[i] == 17 ? 3
						: h->sym[i] == 18 ? 7
								  : 0);
	return bits;
}

static void put_header(struct bitout *b, const struct dyn_header *h)
{
	put_lsb(b, (uint32_t)(h->hlit - 257), 5);
	put_lsb(b, (uint32_t)(h->hdist - 1), 5);
	put_lsb(b, (uint32_t)(h->hclen - 4), 4);
	for (int i = 0; i < h->hclen; i++)
		put_lsb(b, h->cl_len[cl_order[i]], 3);
	for (int i = 0; i < h->nsym; i++) {
		uint8_t s = h->sym[i];

		put_code(b, h->cl_code[s], h->cl_len[s]);
		if (s == 16)
			put_lsb(b, h->rep[i] - 3u, 2);
		else if (s == 17)
			put_lsb(b, h->rep[i] - 3u, 3);
		else if (s == 18)
			put_lsb(b, h->rep[i] - 11u, 7);
	}
}

/* Writes the gathered tokens as one block, the shorter encoding; empties the gathering. */
static void flush_block(struct bitout *b, struct deflate_work *w, int final)
{
	static struct codes fixed, dyn;
	static struct dyn_header h;
	uint64_t fixed_bits, dyn_bits;

	fixed_codes(&fixed);
	dynamic_codes(w, &dyn);
	fixed_bits = data_bits(w, &fixed);
	dyn_bits = plan_header(&dyn, &h) + data_bits(w, &dyn);
	put_lsb(b, (uint32_t) final, 1);
	if (dyn_bits < fixed_bits) {
		put_lsb(b, 2, 2); /* BTYPE 10: dynamic */
		put_header(b, &h);
		put_tokens(b, w, &dyn);
	} else {
		put_lsb(b, 1, 2); /* BTYPE 01: fixed */
		put_tokens(b, w, &fixed);
	}
	w->ntok = 0;
}

/* ---- LZ77 ---- */

#define MIN_MATCH 3
#define MAX_MATCH 258
#define MAX_CHAIN 128 /* candidates tried per position: enough for repeated keys */

static uint32_t hash3(const uint8_t *p)
{
	return ((uint32_t)p[0] << 10 ^ (uint32_t)p[1] << 5 ^ p[2]) &
	       ((1u << DEFLATE_HASH_BITS) - 1);
}

static void insert(struct deflate_work *w, const uint8_t *in, size_t n, size_t pos)
{
	uint32_t h;

	if (pos + MIN_MATCH > n)
		return;
	h = hash3(in + pos);
	w->prev[pos % DEFLATE_WINDOW] = w->head[h] && pos + 1 - w->head[h] < DEFLATE_WINDOW
						? (uint16_t)(pos + 1 - w->head[h])
						: 0;
	w->head[h] = (uint32_t)pos + 1;
}

/* The longest earlier match of in[pos..] within the window; its distance in *dist. */
static unsigned longest(const struct deflate_work *w, const uint8_t *in, size_t n, size_t pos,
			unsigned *dist)
{
	unsigned best = 0, max = n - pos < MAX_MATCH ? (unsigned)(n - pos) : MAX_MATCH;
	size_t cand;
	uint32_t h;

	if (max < MIN_MATCH)
		return 0;
	h = hash3(in + pos);
	if (!w->head[h] || w->head[h] - 1 >= pos)
		return 0;
	cand = w->head[h] - 1;
	for (int chain = 0; chain < MAX_CHAIN && pos - cand < DEFLATE_WINDOW; chain++) {
		unsigned l = 0;
		uint16_t step;

		while (l < max && in[cand + l] == in[pos + l])
			l++;
		if (l > best) {
			best = l;
			*dist = (unsigned)(pos - cand);
		}
		step = w->prev[cand % DEFLATE_WINDOW];
		if (!step || step > cand)
			break;
		cand -= step;
	}
	return best >= MIN_MATCH ? best : 0;
}

static void add_token(struct bitout *b, struct deflate_work *w, unsigned sym, unsigned dist)
{
	w->tok_sym[w->ntok] = (uint16_t)sym;
	w->tok_dist[w->ntok] = (uint16_t)dist;
	if (++w->ntok == DEFLATE_BLOCK_TOKENS)
		flush_block(b, w, 0);
}

/* CMF, FLG and with a dictionary its Adler-32 (RFC 1950 2.2). */
static void put_zlib_header(struct bitout *b, const uint8_t *dict, size_t dict_len)
{
	uint32_t id = deflate_adler32(dict, dict_len);

	put_byte(b, 0x78); /* deflate, 32 KiB window */
	/* FLEVEL 0, FDICT as asked; (0x78 << 8 | FLG) % 31 == 0 either way */
	put_byte(b, dict_len ? 0x20 : 0x01);
	for (int s = 24; dict_len && s >= 0; s -= 8)
		put_byte(b, (uint8_t)(id >> s));
}

size_t zlib_compress(const uint8_t *in, size_t dict_len, size_t n, uint8_t *out, size_t cap,
		     struct deflate_work *w)
{
	struct bitout b = {out, cap, 0, 0, 0, 0};
	uint32_t ad;
	size_t pos = dict_len;

	if (!out || !w || (!in && n) || dict_len > n || dict_len >= DEFLATE_WINDOW)
		return 0;
	ad = deflate_adler32(in + dict_len, n - dict_len);
	for (size_t i = 0; i < (1u << DEFLATE_HASH_BITS); i++)
		w->head[i] = 0;
	w->ntok = 0;
	for (size_t i = 0; i < dict_len; i++)
		insert(w, in, n, i); /* matches may reach back into the dictionary */
	put_zlib_header(&b, in, dict_len);
	while (pos < n && !b.overflow) {
		unsigned dist = 0, next_dist = 0, len = longest(w, in, n, pos, &dist);

		insert(w, in, n, pos);
		/* Lazy: a longer match one byte on is worth a literal first. */
		if (!len || (pos + 1 < n && longest(w, in, n, pos + 1, &next_dist) > len)) {
			add_token(&b, w, in[pos], 0);
			pos++;
			continue;
		}
		add_token(&b, w, 256 + len, dist);
		for (unsigned k = 1; k < len; k++)
			insert(w, in, n, pos + k);
		pos += len;
	}
	flush_block(&b, w, 1);
	if (b.nacc)
		put_lsb(&b, 0, 8 - b.nacc);
	for (int s = 24; s >= 0; s -= 8)
		put_byte(&b, (uint8_t)(ad >> s));
	return b.overflow ? 0 : b.len;
}
