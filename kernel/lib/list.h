/*
 * Doubly linked lists with a head, as Linux's include/linux/list.h: an
 * entry is on at most one list, and an entry taken off points at itself,
 * so taking it off again does nothing.  The few operations the kernel
 * needs, as functions; a user of the list gets from a node to its
 * structure with its own small function (task_of_sibling, task.h).
 */
#ifndef KERNEL_LIB_LIST_H
#define KERNEL_LIB_LIST_H

#include <stdbool.h>

struct list_head {
	struct list_head *next, *prev;
};

static inline void INIT_LIST_HEAD(struct list_head *l)
{
	l->next = l;
	l->prev = l;
}

static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

static inline void list_add_tail(struct list_head *entry, struct list_head *head)
{
	entry->prev = head->prev;
	entry->next = head;
	head->prev->next = entry;
	head->prev = entry;
}

static inline void list_del_init(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	INIT_LIST_HEAD(entry);
}

/* new takes old's place (on no list if old was on none); old is left on no list. */
static inline void list_replace_init(struct list_head *old, struct list_head *new)
{
	if (list_empty(old)) {
		INIT_LIST_HEAD(new);
		return;
	}
	new->next = old->next;
	new->prev = old->prev;
	new->next->prev = new;
	new->prev->next = new;
	INIT_LIST_HEAD(old);
}

#endif
