/*
 * hooks/stdio_lock.c — flock() that must wait suspends only the calling coroutine.
 *
 * A blocking LOCK_SH/LOCK_EX from a coroutine is tried with LOCK_NB; while another holder keeps
 * it, the coroutine sleeps on a timer with a back-off (1 ms doubling to 16 ms) and tries again.
 * No thread is parked: any number of waiters cost timers only, and libuv's four pool threads
 * stay free for other work (a blocking flock() per pool thread would starve them, and could not
 * be interrupted). Coroutines of this process waiting for the same file (device + inode, any
 * handle) queue in arrival order and only the first one tries, so two coroutines that lock,
 * work and unlock in a loop take turns instead of one re-taking the lock before the other's
 * timer fires. LOCK_NB, LOCK_UN, and everything outside a coroutine go straight to PHP's op.
 */
#include "php_async.h"
#include "hooks/hooks.h"
#include "async_io_wait.h"
#include "core/core.h"
#include <sys/file.h>
#include <sys/stat.h>

#define LOCK_BACKOFF_MAX_MS 16

typedef struct {
	HashTable waiters; /* waiter id -> 1, in arrival order: the first one tries */
} lock_queue_t;

static void queue_dtor(zval *zv)
{
	lock_queue_t *q = Z_PTR_P(zv);
	zend_hash_destroy(&q->waiters);
	efree(q);
}

static lock_queue_t *queue_join(const struct stat *sb, zend_ulong id, char key[sizeof(dev_t) + sizeof(ino_t)])
{
	memcpy(key, &sb->st_dev, sizeof(dev_t));
	memcpy(key + sizeof(dev_t), &sb->st_ino, sizeof(ino_t));
	if (ASYNC_G(stdio_locks) == NULL) {
		ALLOC_HASHTABLE(ASYNC_G(stdio_locks));
		zend_hash_init(ASYNC_G(stdio_locks), 4, NULL, queue_dtor, 0);
	}
	size_t klen = sizeof(dev_t) + sizeof(ino_t);
	lock_queue_t *q = zend_hash_str_find_ptr(ASYNC_G(stdio_locks), key, klen);
	if (q == NULL) {
		q = emalloc(sizeof(*q));
		zend_hash_init(&q->waiters, 4, NULL, NULL, 0);
		zend_hash_str_add_new_ptr(ASYNC_G(stdio_locks), key, klen, q);
	}
	zval one;
	ZVAL_TRUE(&one);
	zend_hash_index_add_new(&q->waiters, id, &one);
	return q;
}

static void queue_leave(lock_queue_t *q, zend_ulong id, const char *key)
{
	zend_hash_index_del(&q->waiters, id);
	if (zend_hash_num_elements(&q->waiters) == 0) {
		zend_hash_str_del(ASYNC_G(stdio_locks), key, sizeof(dev_t) + sizeof(ino_t));
	}
}

static bool queue_first(lock_queue_t *q, zend_ulong id)
{
	HashPosition pos;
	zend_ulong first;
	zend_hash_internal_pointer_reset_ex(&q->waiters, &pos);
	return zend_hash_get_current_key_ex(&q->waiters, NULL, &first, &pos) == HASH_KEY_IS_LONG && first == id;
}

/* The waiting loop: 0 once locked, -1 with errno (PHP's flock() reads EWOULDBLOCK from it for
 * $would_block), or -1 with an exception (the coroutine was cancelled: errno EINTR). */
static int lock_wait(php_stream *stream, int value, void *ptrparam, lock_queue_t *q, zend_ulong id)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	async_stdio_state_t *st = async__stdio_state_get(stream);
	zend_ulong delay = 1;
	bool was_first = false;
	for (;;) {
		bool first = queue_first(q, id);
		if (first) {
			int r = orig->set_option(stream, PHP_STREAM_OPTION_LOCKING, value | LOCK_NB, ptrparam);
			if (r == 0 || errno != EWOULDBLOCK) {
				return r;
			}
			if (!was_first) {
				delay = 1; /* just reached the front: try often again */
			}
		}
		was_first = first;
		st->inflight++;
		bool ok = async__wait_ms(delay, 0);
		st->inflight--;
		if (!ok || st->closing) {
			errno = st->closing ? EBADF : EINTR;
			return -1;
		}
		delay = MIN(delay * 2, LOCK_BACKOFF_MAX_MS);
	}
}

int async__stdio_lock(php_stream *stream, int value, void *ptrparam)
{
	const php_stream_ops *orig = async__stdio_orig_ops();
	int fd = async__stdio_fd(stream);
	struct stat sb;
	if ((zend_uintptr_t) ptrparam == PHP_STREAM_LOCK_SUPPORTED || (value & LOCK_NB)
		|| !(value & (LOCK_SH | LOCK_EX)) || fd < 0 || !async__stdio_may_switch() || fstat(fd, &sb) != 0) {
		return orig->set_option(stream, PHP_STREAM_OPTION_LOCKING, value, ptrparam);
	}
	char key[sizeof(dev_t) + sizeof(ino_t)];
	zend_ulong id = ++ASYNC_G(stdio_lock_serial);
	lock_queue_t *q = queue_join(&sb, id, key);
	int r = lock_wait(stream, value, ptrparam, q, id);
	int saved = errno;
	queue_leave(q, id, key);
	errno = saved;
	return r;
}

void async__stdio_lock_rshutdown(void)
{
	if (ASYNC_G(stdio_locks) != NULL) {
		zend_hash_destroy(ASYNC_G(stdio_locks));
		FREE_HASHTABLE(ASYNC_G(stdio_locks));
		ASYNC_G(stdio_locks) = NULL;
	}
}
