/*
 * async_ring.h — the two containers the runtime uses everywhere, header-only:
 *
 * - async_ring_t: a growable FIFO ring of fixed-size elements (the run queue, a channel's buffer,
 *   a pool's idle resources). Capacity is 0 or a power of two, so an index is a mask, not a
 *   division; push at either end and pop at the front are O(1), growth doubles and unrolls.
 *   The element size is passed to every call (one struct serves zvals and pointers alike).
 * - async_list_t: an intrusive doubly-linked FIFO (parked waiters, queued tasks). The node lives
 *   inside the element (ASYNC_LIST_ITEM gets the element back), so linking never allocates and
 *   unlinking from the middle (a waiter that gave up) is O(1).
 */
#ifndef ASYNC_RING_H
#define ASYNC_RING_H

#include "zend.h"

typedef struct {
	char *data;
	uint32_t head;     /* slot of the oldest element */
	uint32_t count;
	uint32_t capacity; /* 0 or a power of two */
} async_ring_t;

#define ASYNC_RING_MIN_CAPACITY 8

static zend_always_inline void *async_ring_slot(const async_ring_t *ring, uint32_t i, size_t size)
{
	ZEND_ASSERT(ring->capacity != 0 && (ring->capacity & (ring->capacity - 1)) == 0);
	return ring->data + (size_t) ((ring->head + i) & (ring->capacity - 1)) * size;
}

/* The i-th element from the front (0 = oldest). */
static zend_always_inline void *async_ring_at(const async_ring_t *ring, uint32_t i, size_t size)
{
	ZEND_ASSERT(i < ring->count);
	return async_ring_slot(ring, i, size);
}

static zend_never_inline void async_ring_grow(async_ring_t *ring, size_t size)
{
	uint32_t capacity = ring->capacity ? ring->capacity * 2 : ASYNC_RING_MIN_CAPACITY;
	char *data = safe_emalloc(capacity, size, 0);
	for (uint32_t i = 0; i < ring->count; i++) {
		memcpy(data + (size_t) i * size, async_ring_slot(ring, i, size), size);
	}
	if (ring->data != NULL) {
		efree(ring->data);
	}
	ring->data = data;
	ring->head = 0;
	ring->capacity = capacity;
}

/* A new slot at the back; the caller fills it. */
static zend_always_inline void *async_ring_push(async_ring_t *ring, size_t size)
{
	if (UNEXPECTED(ring->count == ring->capacity)) {
		async_ring_grow(ring, size);
	}
	return async_ring_slot(ring, ring->count++, size);
}

/* A new slot at the front (it becomes the oldest); the caller fills it. */
static zend_always_inline void *async_ring_push_front(async_ring_t *ring, size_t size)
{
	if (UNEXPECTED(ring->count == ring->capacity)) {
		async_ring_grow(ring, size);
	}
	ring->head = (ring->head - 1) & (ring->capacity - 1);
	ring->count++;
	return ring->data + (size_t) ring->head * size;
}

/* Removes the oldest element; the slot stays readable until the next push. */
static zend_always_inline void *async_ring_pop(async_ring_t *ring, size_t size)
{
	ZEND_ASSERT(ring->count > 0 && "pop from an empty ring");
	void *slot = ring->data + (size_t) ring->head * size;
	ring->head = (ring->head + 1) & (ring->capacity - 1);
	ring->count--;
	return slot;
}

/* Frees the storage; the elements must have been taken out (or need no destructor). */
static zend_always_inline void async_ring_free(async_ring_t *ring)
{
	if (ring->data != NULL) {
		efree(ring->data);
	}
	memset(ring, 0, sizeof(*ring));
}

/* Typed forms. */
#define ASYNC_RING_PUSH(ring, type)       ((type *) async_ring_push((ring), sizeof(type)))
#define ASYNC_RING_PUSH_FRONT(ring, type) ((type *) async_ring_push_front((ring), sizeof(type)))
#define ASYNC_RING_POP(ring, type)        ((type *) async_ring_pop((ring), sizeof(type)))
#define ASYNC_RING_AT(ring, i, type)      ((type *) async_ring_at((ring), (i), sizeof(type)))

/* ---------------------------------------------------------------------------------------------
 * Intrusive doubly-linked FIFO
 * ------------------------------------------------------------------------------------------- */

typedef struct _async_list_node_s async_list_node_t;
struct _async_list_node_s {
	async_list_node_t *prev, *next;
};

typedef struct {
	async_list_node_t *first, *last;
	uint32_t length;
} async_list_t;

/* The element that holds `node` as its member `member`. */
#define ASYNC_LIST_ITEM(node, type, member) \
	((type *) ((char *) (node) - XtOffsetOf(type, member)))

static zend_always_inline void async_list_append(async_list_t *list, async_list_node_t *node)
{
	ZEND_ASSERT(node->prev == NULL && node->next == NULL && list->first != node && "node already linked");
	node->prev = list->last;
	node->next = NULL;
	if (list->last != NULL) {
		list->last->next = node;
	} else {
		list->first = node;
	}
	list->last = node;
	list->length++;
}

static zend_always_inline void async_list_remove(async_list_t *list, async_list_node_t *node)
{
	ZEND_ASSERT(list->length > 0 && "remove from an empty list");
	if (node->prev != NULL) {
		node->prev->next = node->next;
	} else {
		ZEND_ASSERT(list->first == node && "node is not in this list");
		list->first = node->next;
	}
	if (node->next != NULL) {
		node->next->prev = node->prev;
	} else {
		ZEND_ASSERT(list->last == node && "node is not in this list");
		list->last = node->prev;
	}
	node->prev = node->next = NULL;
	list->length--;
}

/* The oldest node, unlinked; NULL when empty. */
static zend_always_inline async_list_node_t *async_list_shift(async_list_t *list)
{
	async_list_node_t *node = list->first;
	if (node != NULL) {
		async_list_remove(list, node);
	}
	return node;
}

#endif /* ASYNC_RING_H */
