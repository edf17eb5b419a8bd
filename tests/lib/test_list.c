/*
 * Host unit test of the kernel's lists (kernel/lib/list.h, the header the
 * kernel includes): two thousand random additions, removals and
 * replacements on a few lists, each list compared after every step with a
 * model array of what it should hold, in order, walked both ways.
 */
#include <check.h>
#include <stdlib.h>

#include "kernel/lib/list.h"
#include "tests/lib/tap_check.h"

#define NODES 32
#define LISTS 3

struct node {
	int list; /* -1: on none */
	struct list_head link;
};

static struct node nodes[NODES];
static struct list_head heads[LISTS];
static int model[LISTS][NODES], model_len[LISTS];

static struct node *node_of(struct list_head *l)
{
	return (struct node *)((char *)l - offsetof(struct node, link));
}

static void model_remove(int list, int n)
{
	int i = 0;

	while (model[list][i] != n)
		i++;
	for (; i + 1 < model_len[list]; i++)
		model[list][i] = model[list][i + 1];
	model_len[list]--;
}

static void check_lists(void)
{
	for (int k = 0; k < LISTS; k++) {
		struct list_head *l = heads[k].next;
		int i = 0;

		for (; l != &heads[k]; l = l->next, i++) {
			ck_assert_int_lt(i, model_len[k]);
			ck_assert_ptr_eq(node_of(l), &nodes[model[k][i]]);
			ck_assert_ptr_eq(l->next->prev, l);
		}
		ck_assert_int_eq(i, model_len[k]);
		for (l = heads[k].prev; l != &heads[k]; l = l->prev)
			ck_assert_ptr_eq(node_of(l), &nodes[model[k][--i]]);
		ck_assert_int_eq(list_empty(&heads[k]), model_len[k] == 0);
	}
	for (int n = 0; n < NODES; n++)
		if (nodes[n].list < 0)
			ck_assert(list_empty(&nodes[n].link));
}

START_TEST(test_random_operations)
{
	srand(1);
	for (int k = 0; k < LISTS; k++)
		INIT_LIST_HEAD(&heads[k]);
	for (int n = 0; n < NODES; n++) {
		nodes[n].list = -1;
		INIT_LIST_HEAD(&nodes[n].link);
	}
	for (int step = 0; step < 2000; step++) {
		int n = rand() % NODES, m = rand() % NODES, k = rand() % LISTS, op = rand() % 3;
		struct node *a = &nodes[n], *b = &nodes[m];

		if (op == 0 && a->list < 0) {
			list_add_tail(&a->link, &heads[k]);
			model[k][model_len[k]++] = n;
			a->list = k;
		} else if (op == 1) {
			/* taking off one on no list is allowed and changes nothing */
			if (a->list >= 0)
				model_remove(a->list, n);
			list_del_init(&a->link);
			a->list = -1;
		} else if (op == 2 && b->list < 0 && n != m) {
			/* b takes a's place, or stays on none if a was on none */
			list_replace_init(&a->link, &b->link);
			if (a->list >= 0) {
				for (int i = 0; i < model_len[a->list]; i++)
					if (model[a->list][i] == n)
						model[a->list][i] = m;
			}
			b->list = a->list;
			a->list = -1;
		}
		check_lists();
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("list");
	TCase *tc = tcase_create("list");

	tcase_add_test(tc, test_random_operations);
	suite_add_tcase(s, tc);
	return tap_run_suite(s);
}
