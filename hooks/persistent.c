/*
 * hooks/persistent.c — persistent connections belong to one coroutine at a time: pfsockopen(),
 * stream_socket_client() with STREAM_CLIENT_PERSISTENT and PDO::ATTR_PERSISTENT.
 *
 * PHP keeps a persistent connection in EG(persistent_list) under a key ("pfsockopen__host:port",
 * "stream_socket_client__tcp://host:port", "PDO:DBH:DSN=...") and hands the entry it finds to
 * whoever asks for that key. With coroutines, two requests' worth of code asking at once would
 * get one connection and read each other's answers. So, inside a coroutine:
 *
 * - Held. The connection a coroutine opens or takes is *held*: its entry is moved to a private
 *   key (the key, a NUL byte, "async-held:" and a serial). PHP looks keys up as C strings, so
 *   nothing of PHP (nor another coroutine) finds it there; a concurrent open of the same key finds
 *   no entry and makes a new connection, which PHP registers under the key (and which is held in
 *   turn by its opener). Stream entries are moved by the transport factory's wrapper
 *   (async__persistent_stream_made(), called by hooks/stream_transport.c right after PHP's factory
 *   registered the new stream, before its connect can suspend), and after pfsockopen() /
 *   stream_socket_client() returned one PHP reused; a PDO's once its constructor returns.
 * - Released when the holder closes it (fclose(): PHP removes the entry by pointer, whatever its
 *   key — our records then find nothing under their private key and are dropped; the last PDO
 *   object of the holder on it is freed), or when the holder ends (a switch handler,
 *   is_finishing). A released entry goes back under its key if that is free, else under a spare
 *   key (the key, NUL, "async-spare:" and a number): a second connection kept for reuse as PHP
 *   keeps persistent ones. An open in a coroutine that finds its key empty first promotes a spare
 *   to the key, so PHP reuses it (after its own liveness check).
 * - The same coroutine asking again for a key it holds gets the connection it holds, as stock PHP
 *   would: the entry is put under the key for the call and taken back after.
 * - PDO registers a new connection only after its driver connected, and applies the options
 *   after that (both may suspend): a second construction of the key in that window would register
 *   again and PHP would free the first connection under its user (P22). Persistent constructions
 *   of one key therefore take turns (FIFO, through the one wait path), and a release never puts
 *   an entry under a key whose construction is under way (it goes to a spare).
 * - At the request's end every held entry goes back (under its key, or a spare), so the next
 *   request finds its persistent connections where PHP looks.
 *
 * Outside coroutines (and in the scheduler's context) everything is PHP's own: nothing is moved.
 * mysqli's "p:" links need none of this: mysqli keeps free links per key and gives each object
 * one of its own (tests/persistent prove it).
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php_async.h"
#include "hooks/hooks.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "php_streams.h"
#include "ext/standard/streamsfuncs.h"

#ifdef HAVE_ASYNC_PDO_POOL
# include "ext/pdo/php_pdo_driver.h"
#endif

#define HELD_MARK  "async-held:"
#define SPARE_MARK "async-spare:"

/* One entry of EG(persistent_list) held by a coroutine. Request memory. */
typedef struct _persist_held_s persist_held_t;
struct _persist_held_s {
	zend_string *key;          /* PHP's key for it */
	zend_string *at;           /* where it is now: its private key */
	void *ptr;                 /* the entry's ptr (php_stream *, pdo_dbh_t *) and type */
	int type;
	zend_coroutine_t *co;      /* the holder */
	uint32_t objects;          /* the holder's PDO objects on it */
	uint32_t pins;             /* calls under way that use the record: it stays meanwhile */
	bool by_objects;           /* a PDO connection: released when its last object goes */
	bool ended;                /* the holder ended: released when the last pin goes */
	bool linked;               /* in the holder's list (ASYNC_G(persistent_cos)) */
	persist_held_t *next;      /* the holder's other records */
};

/* One key whose PDO construction is under way: the coroutines that want it, in order. */
typedef struct {
	zend_coroutine_t *owner;
	async_list_t waiters;      /* persist_waiter_t */
	zend_async_event_t event;  /* notified when the turn passes */
	uint32_t users;            /* owner + waiters: freed at 0 */
} persist_turn_t;

typedef struct {
	async_list_node_t node;
	zend_coroutine_t *co;
} persist_waiter_t;

static void held_check(persist_held_t *h);

/* ---------------------------------------------------------------------------------------------
 * The persistent list
 * ------------------------------------------------------------------------------------------- */

static zend_resource *plist_find(const char *key, size_t len)
{
	return zend_hash_str_find_ptr(&EG(persistent_list), key, len);
}

/* Moves an entry to a free key; the entry itself (and what it holds) is untouched. */
static void plist_move(const char *from, size_t from_len, const char *to, size_t to_len)
{
	HashTable *ht = &EG(persistent_list);
	zend_resource *le = zend_hash_str_find_ptr(ht, from, from_len);
	ZEND_ASSERT(le != NULL && zend_hash_str_find(ht, to, to_len) == NULL);
	dtor_func_t dtor = ht->pDestructor;
	ht->pDestructor = NULL;
	zend_hash_str_del(ht, from, from_len);
	ht->pDestructor = dtor;
	zend_hash_str_add_new_ptr(ht, to, to_len, le); /* the table is persistent: so is the key */
}

/* key + NUL + mark + number */
static zend_string *private_key(const zend_string *key, const char *mark, zend_ulong n)
{
	char num[MAX_LENGTH_OF_LONG + 1];
	size_t num_len = (size_t) snprintf(num, sizeof(num), ZEND_ULONG_FMT, n);
	size_t mark_len = strlen(mark);
	zend_string *s = zend_string_alloc(ZSTR_LEN(key) + 1 + mark_len + num_len, 0);
	char *p = ZSTR_VAL(s);
	memcpy(p, ZSTR_VAL(key), ZSTR_LEN(key));
	p += ZSTR_LEN(key);
	*p++ = '\0';
	memcpy(p, mark, mark_len);
	p += mark_len;
	memcpy(p, num, num_len);
	p[num_len] = '\0';
	return s;
}

static bool is_spare_of(const zend_string *candidate, const zend_string *key)
{
	size_t mark_len = sizeof(SPARE_MARK) - 1;
	return ZSTR_LEN(candidate) > ZSTR_LEN(key) + 1 + mark_len
		&& memcmp(ZSTR_VAL(candidate), ZSTR_VAL(key), ZSTR_LEN(key)) == 0
		&& ZSTR_VAL(candidate)[ZSTR_LEN(key)] == '\0'
		&& memcmp(ZSTR_VAL(candidate) + ZSTR_LEN(key) + 1, SPARE_MARK, mark_len) == 0;
}

/* The key is empty: a spare of it, if one is kept, goes under it (PHP checks its liveness). */
static void plist_promote_spare(const zend_string *key)
{
	zend_string *found = NULL;
	zend_string *k;
	ZEND_HASH_MAP_FOREACH_STR_KEY(&EG(persistent_list), k) {
		if (k != NULL && is_spare_of(k, key)) {
			found = k;
			break;
		}
	} ZEND_HASH_FOREACH_END();
	if (found != NULL) {
		zend_string *from = zend_string_copy(found);
		plist_move(ZSTR_VAL(from), ZSTR_LEN(from), ZSTR_VAL(key), ZSTR_LEN(key));
		zend_string_release(from);
	}
}

/* Moves the entry now under `from` to a free spare key of `key`. */
static void plist_to_spare(const char *from, size_t from_len, const zend_string *key)
{
	for (zend_ulong n = 1;; n++) {
		zend_string *spare = private_key(key, SPARE_MARK, n);
		if (plist_find(ZSTR_VAL(spare), ZSTR_LEN(spare)) == NULL) {
			plist_move(from, from_len, ZSTR_VAL(spare), ZSTR_LEN(spare));
			zend_string_release(spare);
			return;
		}
		zend_string_release(spare);
	}
}

/* The key of the entry whose ptr is `ptr`, or NULL. */
static zend_string *plist_key_of(void *ptr, int type)
{
	zend_string *k;
	zend_resource *le;
	ZEND_HASH_MAP_FOREACH_STR_KEY_PTR(&EG(persistent_list), k, le) {
		if (k != NULL && le != NULL && le->ptr == ptr && le->type == type) {
			return k;
		}
	} ZEND_HASH_FOREACH_END();
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Turns: one PDO construction of a key at a time
 * ------------------------------------------------------------------------------------------- */

static zend_string *turn_info(zend_async_event_t *event)
{
	(void) event;
	return zend_string_init("persistent connection turn", sizeof("persistent connection turn") - 1, 0);
}

static bool turn_busy(const zend_string *key)
{
	HashTable *turns = ASYNC_G(persistent_turns);
	return turns != NULL && zend_hash_exists(turns, (zend_string *) key);
}

static void turn_give(persist_turn_t *t)
{
	async_list_node_t *next = async_list_shift(&t->waiters);
	t->owner = next != NULL ? ASYNC_LIST_ITEM(next, persist_waiter_t, node)->co : NULL;
	if (next != NULL) {
		ZEND_ASYNC_CALLBACKS_NOTIFY(&t->event, NULL, NULL);
		async__wait_plain_event_trim(&t->event);
	}
}

static void turn_unuse(const zend_string *key, persist_turn_t *t)
{
	if (--t->users > 0) {
		return;
	}
	ZEND_ASSERT(t->owner == NULL && t->waiters.length == 0);
	async__wait_plain_event_free(&t->event);
	zend_hash_del(ASYNC_G(persistent_turns), (zend_string *) key);
	efree(t);
}

/* The key's turn for `me`: at once when nobody constructs it, else after those before (FIFO).
 * Where the coroutine cannot wait (a destructor on PHP < 8.4), a busy turn is not waited for:
 * NULL without an exception. NULL with an exception: cancelled while waiting. */
static persist_turn_t *turn_take(const zend_string *key, zend_coroutine_t *me)
{
	HashTable *turns = ASYNC_G(persistent_turns);
	if (turns == NULL) {
		ALLOC_HASHTABLE(turns);
		zend_hash_init(turns, 8, NULL, NULL, 0);
		ASYNC_G(persistent_turns) = turns;
	}
	persist_turn_t *t = zend_hash_find_ptr(turns, (zend_string *) key);
	if (t == NULL) {
		t = ecalloc(1, sizeof(*t));
		async__wait_plain_event_init(&t->event, turn_info);
		zend_hash_add_new_ptr(turns, (zend_string *) key, t);
	} else if (t->owner != NULL && !async__wait_allowed()) {
		return NULL;
	}
	t->users++;
	if (t->owner == NULL) {
		t->owner = me;
		return t;
	}
	persist_waiter_t waiter = { .co = me };
	async_list_append(&t->waiters, &waiter.node);
	bool ok = true;
	while (t->owner != me) {
		if (!async__wait_event(&t->event, NULL, NULL, "wait for a persistent connection")) {
			ok = false;
			break;
		}
		async__wait_plain_event_trim(&t->event);
	}
	if (ok) {
		return t;
	}
	async__wait_plain_event_trim(&t->event);
	if (t->owner == me) {
		turn_give(t); /* handed to us as the cancellation came: the next one's */
	} else {
		async_list_remove(&t->waiters, &waiter.node);
	}
	turn_unuse(key, t);
	return NULL;
}

static void turn_release(const zend_string *key, persist_turn_t *t)
{
	turn_give(t);
	turn_unuse(key, t);
}

/* ---------------------------------------------------------------------------------------------
 * Held entries
 * ------------------------------------------------------------------------------------------- */

static zend_coroutine_t *current_coroutine(void)
{
	zend_coroutine_t *co = ZEND_ASYNC_CURRENT_COROUTINE;
	if (co == NULL || ZEND_ASYNC_IS_SCHEDULER_CONTEXT || ZEND_COROUTINE_IS_FINISHED(co)) {
		return NULL;
	}
	return co;
}

static persist_held_t *held_first(zend_coroutine_t *co)
{
	HashTable *cos = ASYNC_G(persistent_cos);
	return cos != NULL ? zend_hash_index_find_ptr(cos, (zend_ulong) (uintptr_t) co) : NULL;
}

/* The record's entry is still where the record put it (not closed and freed by PHP: fclose()
 * removes a persistent stream's entry by pointer, whatever its key). The private key is the
 * record's alone, so what is found there is the record's entry or nothing. */
static zend_resource *held_entry(persist_held_t *h)
{
	zend_resource *le = plist_find(ZSTR_VAL(h->at), ZSTR_LEN(h->at));
	return le != NULL && le->ptr == h->ptr && le->type == h->type ? le : NULL;
}

static bool coroutine_switch(zend_coroutine_t *co, bool is_enter, bool is_finishing);

/* The entry under `found` (PHP's key `key`) becomes `co`'s: moved to a private key. */
static persist_held_t *held_add(zend_coroutine_t *co, const char *key, size_t key_len, const char *found,
	size_t found_len)
{
	zend_resource *le = plist_find(found, found_len);
	ZEND_ASSERT(le != NULL);
	persist_held_t *h = ecalloc(1, sizeof(*h));
	h->key = zend_string_init(key, key_len, 0);
	h->at = private_key(h->key, HELD_MARK, ++ASYNC_G(persistent_serial));
	h->ptr = le->ptr;
	h->type = le->type;
	h->co = co;
	h->linked = true;
	plist_move(found, found_len, ZSTR_VAL(h->at), ZSTR_LEN(h->at));

	HashTable *cos = ASYNC_G(persistent_cos);
	if (cos == NULL) {
		ALLOC_HASHTABLE(cos);
		zend_hash_init(cos, 8, NULL, NULL, 0);
		ASYNC_G(persistent_cos) = cos;
	}
	zval *head = zend_hash_index_lookup(cos, (zend_ulong) (uintptr_t) co);
	if (Z_TYPE_P(head) == IS_PTR) {
		h->next = Z_PTR_P(head);
	} else {
		ZEND_COROUTINE_ADD_SWITCH_HANDLER(co, coroutine_switch);
	}
	ZVAL_PTR(head, h);
	return h;
}

/* The record of `co` on `ptr`, its entry alive; NULL when none. */
static persist_held_t *held_find_ptr(zend_coroutine_t *co, void *ptr)
{
	for (persist_held_t *h = held_first(co); h != NULL; h = h->next) {
		if (h->ptr == ptr && !h->ended && held_entry(h) != NULL) {
			return h;
		}
	}
	return NULL;
}

/* The record of `co` on PHP's key `key`, its entry alive; NULL when none. */
static persist_held_t *held_find_key(zend_coroutine_t *co, const zend_string *key)
{
	for (persist_held_t *h = held_first(co); h != NULL; h = h->next) {
		if (zend_string_equals(h->key, key) && !h->ended && held_entry(h) != NULL) {
			return h;
		}
	}
	return NULL;
}

static void held_unlink(persist_held_t *h)
{
	if (!h->linked) {
		return;
	}
	h->linked = false;
	HashTable *cos = ASYNC_G(persistent_cos);
	zend_ulong k = (zend_ulong) (uintptr_t) h->co;
	persist_held_t *head = cos != NULL ? zend_hash_index_find_ptr(cos, k) : NULL;
	if (head == h) {
		if (h->next != NULL) {
			zend_hash_index_update_ptr(cos, k, h->next);
		} else {
			zend_hash_index_del(cos, k);
		}
		return;
	}
	for (persist_held_t *p = head; p != NULL; p = p->next) {
		if (p->next == h) {
			p->next = h->next;
			return;
		}
	}
}

#ifdef HAVE_ASYNC_PDO_POOL
static void pdo_forget_objects(persist_held_t *h);
#endif

/* The holder lets go: the entry goes back under its key, or to a spare when the key is taken or
 * a PDO construction of it is under way; an entry PHP closed meanwhile is only forgotten. */
static void held_release(persist_held_t *h)
{
	ZEND_ASSERT(h->pins == 0);
#ifdef HAVE_ASYNC_PDO_POOL
	if (h->objects > 0) {
		pdo_forget_objects(h);
	}
#endif
	zend_resource *le = plist_find(ZSTR_VAL(h->at), ZSTR_LEN(h->at));
	if (le != NULL && le->ptr == h->ptr && le->type == h->type) {
		if (plist_find(ZSTR_VAL(h->key), ZSTR_LEN(h->key)) == NULL && !turn_busy(h->key)) {
			plist_move(ZSTR_VAL(h->at), ZSTR_LEN(h->at), ZSTR_VAL(h->key), ZSTR_LEN(h->key));
		} else {
			plist_to_spare(ZSTR_VAL(h->at), ZSTR_LEN(h->at), h->key);
		}
	} else if (le != NULL) {
		/* closed by PHP (a dead connection), not freed: dropped as PHP would drop it */
		zend_hash_str_del(&EG(persistent_list), ZSTR_VAL(h->at), ZSTR_LEN(h->at));
	}
	held_unlink(h);
	zend_string_release(h->key);
	zend_string_release(h->at);
	efree(h);
}

/* Released when nothing uses the record any more and its holder ended, its last PDO object went,
 * or PHP closed its entry. */
static void held_check(persist_held_t *h)
{
	if (h->pins == 0 && (h->ended || (h->by_objects && h->objects == 0) || held_entry(h) == NULL)) {
		held_release(h);
	}
}

/* Records of `co` whose entries PHP closed (fclose(), a failed connect) are dropped. */
static void held_prune(zend_coroutine_t *co)
{
	persist_held_t *h = held_first(co);
	while (h != NULL) {
		persist_held_t *next = h->next;
		if (h->pins == 0 && held_entry(h) == NULL) {
			held_release(h);
		}
		h = next;
	}
}

static void held_unpin(persist_held_t *h)
{
	ZEND_ASSERT(h->pins > 0);
	h->pins--;
	held_check(h);
}

/* The coroutine ended (or the request ends: `force`). A record still in use by a call of another
 * coroutine (a PDO object's free rolling back) is released when that call is over. */
static void held_release_all(zend_coroutine_t *co, bool force)
{
	persist_held_t *h = held_first(co);
	if (h == NULL) {
		return;
	}
	zend_hash_index_del(ASYNC_G(persistent_cos), (zend_ulong) (uintptr_t) co);
	while (h != NULL) {
		persist_held_t *next = h->next;
		h->linked = false;
		h->ended = true;
		if (force) {
			h->pins = 0;
		}
		held_check(h);
		h = next;
	}
}

static bool coroutine_switch(zend_coroutine_t *co, bool is_enter, bool is_finishing)
{
	if (!is_finishing) {
		return true;
	}
	held_release_all(co, false);
	return false;
}

/* Before an open of `key` by `co`: the connection `co` holds under that key is put back under it
 * for PHP to find (an idle one there goes to a spare first), pinned; else, the key being empty, a
 * spare is promoted. The record exposed, or NULL. */
static persist_held_t *open_prepare(zend_coroutine_t *co, const zend_string *key)
{
	held_prune(co);
	persist_held_t *mine = held_find_key(co, key);
	if (mine != NULL) {
		if (plist_find(ZSTR_VAL(key), ZSTR_LEN(key)) != NULL) {
			plist_to_spare(ZSTR_VAL(key), ZSTR_LEN(key), key);
		}
		plist_move(ZSTR_VAL(mine->at), ZSTR_LEN(mine->at), ZSTR_VAL(key), ZSTR_LEN(key));
		mine->pins++;
		return mine;
	}
	if (plist_find(ZSTR_VAL(key), ZSTR_LEN(key)) == NULL) {
		plist_promote_spare(key);
	}
	return NULL;
}

/* After the open: the exposed record's entry goes back to its private key if PHP kept it (PHP
 * closes a dead one, and then made a new one). Still pinned: open_done() after the result is
 * held. */
static void open_restore(persist_held_t *mine)
{
	if (mine == NULL) {
		return;
	}
	zend_resource *le = plist_find(ZSTR_VAL(mine->key), ZSTR_LEN(mine->key));
	if (le != NULL && le->ptr == mine->ptr && le->type == mine->type) {
		plist_move(ZSTR_VAL(mine->key), ZSTR_LEN(mine->key), ZSTR_VAL(mine->at), ZSTR_LEN(mine->at));
	}
}

static void open_done(persist_held_t *mine)
{
	if (mine != NULL) {
		held_unpin(mine);
	}
}

/* The connection `ptr` a call gave `co`: held, unless it is already. */
static persist_held_t *hold_result(zend_coroutine_t *co, void *ptr, int type)
{
	persist_held_t *h = held_find_ptr(co, ptr);
	if (h != NULL) {
		return h;
	}
	zend_string *found = plist_key_of(ptr, type);
	if (found == NULL || memchr(ZSTR_VAL(found), '\0', ZSTR_LEN(found)) != NULL) {
		return NULL; /* not in the list, or another coroutine's (an object the user shares) */
	}
	zend_string *k = zend_string_copy(found);
	h = held_add(co, ZSTR_VAL(k), ZSTR_LEN(k), ZSTR_VAL(k), ZSTR_LEN(k));
	zend_string_release(k);
	return h;
}

/* ---------------------------------------------------------------------------------------------
 * Streams: pfsockopen(), stream_socket_client(STREAM_CLIENT_PERSISTENT)
 * ------------------------------------------------------------------------------------------- */

static ZEND_FUNCTION(async_pfsockopen);
static ZEND_FUNCTION(async_stream_socket_client);

/* per-process: the function table's handlers, swapped at MINIT */
static async_function_hook_t hooks[] = {
	{ "pfsockopen", ZEND_FN(async_pfsockopen), NULL },
	{ "stream_socket_client", ZEND_FN(async_stream_socket_client), NULL },
};

void async__persistent_stream_made(php_stream *stream, const char *persistent_id)
{
	zend_coroutine_t *co = ASYNC_G(persistent_opening);
	if (stream == NULL || persistent_id == NULL || co == NULL || co != ZEND_ASYNC_CURRENT_COROUTINE) {
		return;
	}
	ASYNC_G(persistent_opening) = NULL;
	size_t len = strlen(persistent_id);
	zend_resource *le = plist_find(persistent_id, len);
	if (le != NULL && le->ptr == stream) {
		held_add(co, persistent_id, len, persistent_id, len);
	}
}

/* A persistent open of `key` (NULL: unknown, the result is only held) by PHP's `orig`. */
static void stream_open(zend_coroutine_t *co, zend_string *key, zif_handler orig, INTERNAL_FUNCTION_PARAMETERS)
{
	if (UNEXPECTED(EG(exception))) {
		RETURN_THROWS(); /* a deprecation's handler threw while the arguments were coerced */
	}
	persist_held_t *mine = key != NULL ? open_prepare(co, key) : NULL;
	if (key == NULL) {
		held_prune(co);
	}
	ASYNC_G(persistent_opening) = co;
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (ASYNC_G(persistent_opening) == co) {
		ASYNC_G(persistent_opening) = NULL;
	}
	open_restore(mine);
	if (Z_TYPE_P(return_value) == IS_RESOURCE && current_coroutine() == co) {
		php_stream *stream = zend_fetch_resource2(Z_RES_P(return_value), NULL, php_file_le_stream(), php_file_le_pstream());
		if (stream != NULL && stream->is_persistent) {
			hold_result(co, stream, php_file_le_pstream());
		}
	}
	open_done(mine);
}

/* PHP's key as PHP's lookup sees it: a C string (cut at a NUL byte). */
static zend_string *key_cut(zend_string *key)
{
	size_t len = strlen(ZSTR_VAL(key));
	if (len != ZSTR_LEN(key)) {
		zend_string *cut = zend_string_init(ZSTR_VAL(key), len, 0);
		zend_string_release(key);
		return cut;
	}
	return key;
}

/* An argument PHP's parsing would coerce (weak mode: an int host, a numeric-string port): coerced
 * here once, in place, so the key is PHP's own and PHP's function neither coerces nor warns again.
 * False: not ours to coerce (strict types, a type PHP rejects, an exception from a deprecation
 * handler); PHP's function says what is wrong. */
static bool arg_as_string(zval *arg, uint32_t num)
{
	if (Z_TYPE_P(arg) == IS_STRING) {
		return true;
	}
	zend_string *str;
	if (ZEND_ARG_USES_STRICT_TYPES() || Z_TYPE_P(arg) > IS_STRING || !zend_parse_arg_str_weak(arg, &str, num)) {
		return false;
	}
	ZEND_ASSERT(Z_TYPE_P(arg) == IS_STRING || EG(exception));
	return Z_TYPE_P(arg) == IS_STRING && !EG(exception);
}

static bool arg_as_long(zval *arg, uint32_t num)
{
	if (Z_TYPE_P(arg) == IS_LONG) {
		return true;
	}
	zend_long value;
	if (ZEND_ARG_USES_STRICT_TYPES() || Z_TYPE_P(arg) > IS_STRING || !zend_parse_arg_long_weak(arg, &value, num)
		|| EG(exception)) {
		return false;
	}
	zval_ptr_dtor(arg);
	ZVAL_LONG(arg, value);
	return true;
}

static ZEND_FUNCTION(async_pfsockopen)
{
	zif_handler orig = hooks[0].original;
	zend_coroutine_t *co = current_coroutine();
	if (co == NULL) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* fsock.c: "pfsockopen__" host ":" port (port -1 when not given) */
	zend_string *key = NULL;
	uint32_t argc = EX_NUM_ARGS();
	zval *host = argc >= 1 ? ZEND_CALL_ARG(execute_data, 1) : NULL;
	zval *port = argc >= 2 ? ZEND_CALL_ARG(execute_data, 2) : NULL;
	if (host != NULL && arg_as_string(host, 1) && (port == NULL || arg_as_long(port, 2))) {
		key = zend_strpprintf(0, "pfsockopen__%s:" ZEND_LONG_FMT, Z_STRVAL_P(host), port != NULL ? Z_LVAL_P(port) : -1);
		/* the host may hold a NUL byte: PHP formats it whole, then looks it up as a C string */
		if (memchr(Z_STRVAL_P(host), '\0', Z_STRLEN_P(host)) != NULL) {
			zend_string_release(key);
			key = NULL;
		}
	}
	stream_open(co, key, orig, INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (key != NULL) {
		zend_string_release(key);
	}
}

static ZEND_FUNCTION(async_stream_socket_client)
{
	zif_handler orig = hooks[1].original;
	zend_coroutine_t *co = current_coroutine();
	uint32_t argc = EX_NUM_ARGS();
	zval *flags = argc >= 5 ? ZEND_CALL_ARG(execute_data, 5) : NULL;
	if (co == NULL || flags == NULL || Z_TYPE_P(flags) != IS_LONG || !(Z_LVAL_P(flags) & PHP_STREAM_CLIENT_PERSISTENT)) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	/* streamsfuncs.c: "stream_socket_client__" address */
	zval *address = ZEND_CALL_ARG(execute_data, 1);
	zend_string *key = arg_as_string(address, 1)
		? key_cut(zend_strpprintf(0, "stream_socket_client__%s", Z_STRVAL_P(address))) : NULL;
	stream_open(co, key, orig, INTERNAL_FUNCTION_PARAM_PASSTHRU);
	if (key != NULL) {
		zend_string_release(key);
	}
}

/* ---------------------------------------------------------------------------------------------
 * PDO::ATTR_PERSISTENT
 * ------------------------------------------------------------------------------------------- */

#ifdef HAVE_ASYNC_PDO_POOL

/* per-process: the resource type of PDO's persistent connections (pdo.c's le_ppdo, found by its
 * name at MINIT: pdo does not export it) */
static int le_pdo_persistent;

/* per-process: the handlers of held persistent PDO objects, PHP's with free_obj wrapped (made
 * from the first one; every PDO object has PHP's one set) */
static zend_object_handlers pdo_held_handlers;
static const zend_object_handlers *pdo_orig_handlers;

static void pdo_held_free_obj(zend_object *obj)
{
	HashTable *objs = ASYNC_G(persistent_objs);
	persist_held_t *h = objs != NULL ? zend_hash_index_find_ptr(objs, obj->handle) : NULL;
	if (h != NULL) {
		zend_hash_index_del(objs, obj->handle);
		h->objects--;
		h->pins++; /* PHP's free may roll back (and suspend): the connection stays held meanwhile */
	}
	pdo_orig_handlers->free_obj(obj);
	if (h != NULL) {
		held_unpin(h);
	}
}

/* The record goes: its objects become PHP's own. */
static void pdo_forget_objects(persist_held_t *h)
{
	HashTable *objs = ASYNC_G(persistent_objs);
	if (objs != NULL) {
		zend_ulong handle;
		persist_held_t *p;
		ZEND_HASH_FOREACH_NUM_KEY_PTR(objs, handle, p) {
			if (p == h) {
				zend_object *obj = EG(objects_store).object_buckets[handle];
				if (IS_OBJ_VALID(obj) && obj->handlers == &pdo_held_handlers) {
					obj->handlers = pdo_orig_handlers;
				}
				zend_hash_index_del(objs, handle);
			}
		} ZEND_HASH_FOREACH_END();
	}
	h->objects = 0;
}

static void pdo_track_object(persist_held_t *h, zend_object *obj)
{
	if (pdo_orig_handlers == NULL) {
		/* per-process: the same values whichever thread writes them first */
		memcpy(&pdo_held_handlers, obj->handlers, sizeof(zend_object_handlers));
		pdo_held_handlers.free_obj = pdo_held_free_obj;
		pdo_orig_handlers = obj->handlers;
	}
	if (obj->handlers != pdo_orig_handlers) {
		return; /* another extension's object: held until the coroutine ends */
	}
	HashTable *objs = ASYNC_G(persistent_objs);
	if (objs == NULL) {
		ALLOC_HASHTABLE(objs);
		zend_hash_init(objs, 8, NULL, NULL, 0);
		ASYNC_G(persistent_objs) = objs;
	}
	if (zend_hash_index_add_ptr(objs, obj->handle, h) != NULL) {
		obj->handlers = &pdo_held_handlers;
		h->objects++;
		h->by_objects = true;
	}
}

/* PDO's own persistent key of a construction (pdo_dbh.c), or NULL when the construction is not
 * persistent; *unknown when it is but the key cannot be told beforehand (arguments PHP's parser
 * would convert or refuse, a DSN it could not read). */
static zend_string *pdo_key(zend_execute_data *execute_data, bool *unknown)
{
	*unknown = false;
	uint32_t argc = EX_NUM_ARGS();
	zval *options = argc >= 4 ? ZEND_CALL_ARG(execute_data, 4) : NULL;
	if (options == NULL) {
		return NULL;
	}
	ZVAL_DEREF(options);
	if (Z_TYPE_P(options) != IS_ARRAY) {
		return NULL;
	}
	zval *v = zend_hash_index_find_deref(Z_ARRVAL_P(options), PDO_ATTR_PERSISTENT);
	if (v == NULL) {
		return NULL;
	}
	const char *own = NULL;
	if (Z_TYPE_P(v) == IS_STRING && Z_STRLEN_P(v) > 0 && !is_numeric_string(Z_STRVAL_P(v), Z_STRLEN_P(v), NULL, NULL, 0)) {
		own = Z_STRVAL_P(v);
	} else if (!zval_get_long(v)) {
		return NULL;
	}
	*unknown = true;
	zval *dsn = ZEND_CALL_ARG(execute_data, 1);
	zval *user = argc >= 2 ? ZEND_CALL_ARG(execute_data, 2) : NULL;
	zval *pass = argc >= 3 ? ZEND_CALL_ARG(execute_data, 3) : NULL;
	if (Z_TYPE_P(dsn) != IS_STRING || (user != NULL && Z_TYPE_P(user) != IS_STRING && Z_TYPE_P(user) != IS_NULL)
		|| (pass != NULL && Z_TYPE_P(pass) != IS_STRING && Z_TYPE_P(pass) != IS_NULL)) {
		return NULL;
	}
	const char *source = Z_STRVAL_P(dsn);
	char alias[512];
	if (strchr(source, ':') == NULL) {
		/* a DSN named in php.ini */
		char *ini_dsn = NULL;
		snprintf(alias, sizeof(alias), "pdo.dsn.%s", source);
		if (cfg_get_string(alias, &ini_dsn) == FAILURE || ini_dsn == NULL) {
			return NULL;
		}
		source = ini_dsn;
	}
	char line[512];
	if (strncmp(source, "uri:", 4) == 0) {
		/* the DSN is the first line of a file: read as PDO reads it */
		php_stream *stream = php_stream_open_wrapper((char *) source + 4, "rb", 0, NULL);
		char *read = stream != NULL ? php_stream_get_line(stream, line, sizeof(line), NULL) : NULL;
		if (stream != NULL) {
			php_stream_close(stream);
		}
		if (read == NULL || EG(exception) != NULL) {
			return NULL;
		}
		source = line;
	}
	*unknown = false;
	const char *u = user != NULL && Z_TYPE_P(user) == IS_STRING ? Z_STRVAL_P(user) : "";
	const char *p = pass != NULL && Z_TYPE_P(pass) == IS_STRING ? Z_STRVAL_P(pass) : "";
	return own != NULL
		? zend_strpprintf(0, "PDO:DBH:DSN=%s:%s:%s:%s", source, u, p, own)
		: zend_strpprintf(0, "PDO:DBH:DSN=%s:%s:%s", source, u, p);
}

/* The PDO object a construction made: $this of the constructor, or PDO::connect()'s result. */
static zend_object *pdo_constructed(zend_execute_data *execute_data, zval *return_value)
{
	if (Z_TYPE(EX(This)) == IS_OBJECT) {
		return Z_OBJ(EX(This));
	}
	return Z_TYPE_P(return_value) == IS_OBJECT ? Z_OBJ_P(return_value) : NULL;
}

void async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAMETERS, zif_handler orig)
{
	zend_coroutine_t *co = current_coroutine();
	bool unknown;
	zend_string *key = co != NULL ? pdo_key(execute_data, &unknown) : NULL;
	if (key == NULL && (co == NULL || !unknown)) {
		orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
		return;
	}
	persist_turn_t *turn = NULL;
	persist_held_t *mine = NULL;
	if (key != NULL) {
		turn = turn_take(key, co);
		if (turn == NULL && EG(exception) != NULL) {
			zend_string_release(key);
			return; /* cancelled while waiting */
		}
		mine = open_prepare(co, key);
	} else {
		held_prune(co);
	}

	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);

	open_restore(mine);
	zend_object *obj = pdo_constructed(execute_data, return_value);
	pdo_dbh_t *dbh = obj != NULL ? php_pdo_dbh_fetch_inner(obj) : NULL;
	if (dbh != NULL && dbh->is_persistent && le_pdo_persistent != 0 && current_coroutine() == co) {
		persist_held_t *h = hold_result(co, dbh, le_pdo_persistent);
		if (h != NULL) {
			pdo_track_object(h, obj);
		}
	}
	open_done(mine);
	if (turn != NULL) {
		turn_release(key, turn);
	}
	if (key != NULL) {
		zend_string_release(key);
	}
}

#else /* !HAVE_ASYNC_PDO_POOL */

void async__persistent_pdo_construct(INTERNAL_FUNCTION_PARAMETERS, zif_handler orig)
{
	orig(INTERNAL_FUNCTION_PARAM_PASSTHRU);
}

#endif

/* ---------------------------------------------------------------------------------------------
 * Install, request end
 * ------------------------------------------------------------------------------------------- */

zend_result async__hook_persistent_minit(void)
{
	async__function_hooks_install(hooks, sizeof(hooks) / sizeof(hooks[0]));
#ifdef HAVE_ASYNC_PDO_POOL
	le_pdo_persistent = zend_fetch_list_dtor_id("PDO persistent database");
#endif
	return SUCCESS;
}

void async__hook_persistent_mshutdown(void)
{
	async__function_hooks_uninstall(hooks, sizeof(hooks) / sizeof(hooks[0]));
}

void async__hook_persistent_rshutdown(void)
{
	HashTable *cos = ASYNC_G(persistent_cos);
	if (cos != NULL) {
		/* every coroutine has ended: what they hold goes back */
		while (zend_hash_num_elements(cos) > 0) {
			zend_hash_internal_pointer_reset(cos);
			zend_ulong co;
			zend_hash_get_current_key(cos, NULL, &co);
			held_release_all((zend_coroutine_t *) (uintptr_t) co, true);
		}
		zend_hash_destroy(cos);
		FREE_HASHTABLE(cos);
		ASYNC_G(persistent_cos) = NULL;
	}
	if (ASYNC_G(persistent_objs) != NULL) {
		zend_hash_destroy(ASYNC_G(persistent_objs));
		FREE_HASHTABLE(ASYNC_G(persistent_objs));
		ASYNC_G(persistent_objs) = NULL;
	}
	if (ASYNC_G(persistent_turns) != NULL) {
		/* no coroutine outlives the request: nobody waits */
		persist_turn_t *t;
		ZEND_HASH_FOREACH_PTR(ASYNC_G(persistent_turns), t) {
			async__wait_plain_event_free(&t->event);
			efree(t);
		} ZEND_HASH_FOREACH_END();
		zend_hash_destroy(ASYNC_G(persistent_turns));
		FREE_HASHTABLE(ASYNC_G(persistent_turns));
		ASYNC_G(persistent_turns) = NULL;
	}
	ASYNC_G(persistent_opening) = NULL;
}
