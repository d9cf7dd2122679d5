/*
 * channel.c — Async\Channel: FIFO message passing between coroutines (spec §3.7, §8.7).
 *
 * The channel lives inside its PHP object (an F_ZEND_OBJ event, like a coroutine): a parked
 * coroutine's waker holds a reference to the object, so a channel cannot die under its waiters,
 * and C code (ZEND_ASYNC_NEW_CHANNEL) holds references the same way.
 *
 * Values sit in a ring buffer; parked senders and receivers wait in two FIFO queues. A sender
 * gives its value straight to the oldest parked receiver: what a woken receiver was given is its
 * own before it even runs. A receiver that frees room hands a *slot*, not a value, to the oldest
 * parked sender (spec §8.7): the slot is reserved (`reserved`), so no newcomer (a sendAsync(), a
 * send() that did not park) can take it, and the woken sender moves its value in when it runs; a
 * receiver that drains faster parks until then. A rendezvous channel has one slot: a send() that
 * finds it free puts its value there and waits, as the slot's owner, until a receiver takes it.
 *
 * Parked coroutines are not kept in the event's callback vector but in the queues (O(1) unlink);
 * the channel's add_callback/del_callback recognise them by their callback function. Other
 * subscribers (C code waiting on the channel among other events) are ordinary callbacks: they are
 * notified, with a ChannelException, when the channel closes.
 *
 * A waiter woken by close() gets no error through its waker: it loops, drains what is buffered
 * and throws the ChannelException itself, so the exception is created (and traced) in the
 * coroutine that receives it, and foreach can end quietly.
 *
 * Cancellation keeps "a value arrives exactly once, and only if its send() succeeded": a parked
 * sender that is cancelled loses its value (the slot's owner withdraws it from the slot); a
 * sender woken with a slot but cancelled before it ran passes the slot to the next sender; a
 * receiver handed a value but cancelled before it ran gives the value back; a slot owner whose
 * value was taken before the cancel came returns normally and meets the cancellation at its next
 * suspension point.
 *
 * recvAsync() parks a future instead of a coroutine in the receivers' FIFO. The no-producer /
 * no-consumer timers run only while a coroutine waits on that side; channels with soft timers
 * are listed for the deadlock resolver (async_channels_resolve_deadlock()).
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "reactor/reactor.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "zend_enum.h"
#include "channel_arginfo.h"

zend_class_entry *async__ce_channel;
zend_class_entry *async__ce_channel_close_reason;
zend_class_entry *async__ce_channel_exception;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers channel_handlers;

/* ---------------------------------------------------------------------------------------------
 * Structures
 * ------------------------------------------------------------------------------------------- */

typedef struct _async_channel_s async_channel_t;
typedef struct _async_channel_waiter_s async_channel_waiter_t;

/* A FIFO of parked waiters (async_list_t of their `node`). */
typedef async_list_t async_channel_queue_t;

typedef enum {
	WAITER_PARKED,  /* nothing yet */
	WAITER_DONE,    /* a receiver was given a value / the slot owner's value was taken */
	WAITER_SLOT,    /* a queued sender was granted a slot: it moves its value in when it runs */
	WAITER_CLOSED   /* woken by close(): look again (drain), then fail */
} async_channel_waiter_state;

/* A parked send() or recv(). It is the callback its coroutine's waker subscribes to the channel
 * with, so the waker's clean-up (del_callback) unlinks it whatever woke the coroutine.
 * A pending recvAsync() is a waiter too, with a future instead of a coroutine: the queue owns it. */
struct _async_channel_waiter_s {
	zend_coroutine_event_callback_t cb; /* first: seen as a callback by the waker */
	async_list_node_t node;             /* in `queue` while linked */
	async_channel_queue_t *queue;       /* non-NULL while linked */
	zend_future_t *future;              /* recvAsync(): one reference; cb.coroutine is NULL */
	async_channel_waiter_state state;
	bool subscribed;                    /* holds the reference add_callback took */
	zval value;                         /* what a receiver was given (senders keep their own) */
};

/* The two lazy timers: NO_PRODUCERS runs while receivers wait, NO_CONSUMERS while senders do. */
enum { TIMER_PRODUCERS = 0, TIMER_CONSUMERS = 1 };

typedef struct {
	zend_async_event_callback_t base;
	async_channel_t *channel;
	int kind;
} async_channel_timer_cb_t;

typedef struct {
	zend_async_timer_event_t *event;
	async_channel_timer_cb_t *cb;
	uint32_t ms;        /* 0 = no timeout */
	uint64_t since;     /* ms: when the wait began or traffic last flowed */
} async_channel_timer_t;

struct _async_channel_s {
	zend_async_channel_t base;          /* first: the event */
	async_ring_t buffer;                /* zvals, grown on demand */
	uint32_t capacity;
	uint32_t promised;                  /* values handed to woken receivers that have not run yet */
	uint32_t reserved;                  /* slots granted to woken senders that have not run yet */
	bool slot;                          /* rendezvous: the buffer's newest value is the slot's */
	async_channel_waiter_t *slot_owner; /* rendezvous: the send() waiting for the slot's value to be taken */
	bool unbounded;                     /* C "resizable": sends never wait */
	bool constructed;
	bool closed;
	bool hard_timeouts;
	async_channel_close_reason reason;
	async_channel_queue_t receivers, senders;
	async_channel_timer_t timers[2];
	async_channel_t *soft_prev, *soft_next; /* in ASYNC_G(soft_channels) while it has soft timeouts */
	bool soft_linked;
	async_channel_waiter_t *spare;      /* the last park's waiter, kept for the next one */
	struct _channel_scope_cb_s *owner;  /* the binding to the creating scope, if any */
	zend_object std;
};

typedef enum { CH_OK, CH_CLOSED, CH_WOULD_BLOCK, CH_ERROR } channel_status;
typedef enum { PARK_DONE, PARK_SLOT, PARK_RETRY, PARK_ERROR } park_result;
typedef enum { PUT_DONE, PUT_FULL, PUT_SLOT } put_result;

#define CH_FROM_OBJ(o)   ((async_channel_t *) ((char *) (o) - XtOffsetOf(async_channel_t, std)))
#define CH_EVENT(ch)     (&(ch)->base.event)
#define THIS_CHANNEL()   CH_FROM_OBJ(Z_OBJ_P(ZEND_THIS))

/* Channels with soft timeouts, for the deadlock resolver. Per request: every channel unlinks
 * itself when it closes or is freed, so the list is empty between requests. */

static void channel_close(async_channel_t *ch, async_channel_close_reason reason);

/* ---------------------------------------------------------------------------------------------
 * Close reasons and the exception
 * ------------------------------------------------------------------------------------------- */

static const char *const reason_cases[] = {
	"EXPLICIT", "DISPOSED", "NO_PRODUCERS", "NO_CONSUMERS", "DEADLOCK", "SCOPE_DISPOSED"
};

static const char *const reason_messages[] = {
	"Channel is closed",
	"Channel disposed",
	"Channel deadlock: no producers",
	"Channel deadlock: no consumers",
	"Channel deadlock",
	"Channel closed: owner scope disposed"
};

zend_object *async__channel_exception(async_channel_close_reason reason)
{
	zend_object *ex = async__new_exception(async__ce_channel_exception, reason_messages[reason]);
	zval zreason;
	ZVAL_OBJ_COPY(&zreason, zend_enum_get_case_cstr(async__ce_channel_close_reason, reason_cases[reason]));
	zend_update_property(async__ce_channel_exception, ex, "reason", sizeof("reason") - 1, &zreason);
	zval_ptr_dtor(&zreason);
	return ex;
}

static void channel_throw_closed(async_channel_t *ch)
{
	zend_throw_exception_internal(async__channel_exception(ch->reason));
}

/* ---------------------------------------------------------------------------------------------
 * Ring buffer
 * ------------------------------------------------------------------------------------------- */

/* Takes over the caller's reference. */
static zend_always_inline void ring_push(async_channel_t *ch, zval *value)
{
	ZVAL_COPY_VALUE(ASYNC_RING_PUSH(&ch->buffer, zval), value);
}

/* A value given back by a receiver that could not use it: it was the oldest, so it goes first. */
static void ring_push_front(async_channel_t *ch, zval *value)
{
	ZVAL_COPY_VALUE(ASYNC_RING_PUSH_FRONT(&ch->buffer, zval), value);
}

/* Hands the reference to the caller. */
static zend_always_inline void ring_pop(async_channel_t *ch, zval *value)
{
	ZVAL_COPY_VALUE(value, ASYNC_RING_POP(&ch->buffer, zval));
}

/* ---------------------------------------------------------------------------------------------
 * The rendezvous slot (spec §8.7): an unbuffered channel holds one value at most, put there by a
 * send() that then waits for its taker (the slot's owner), or by a sendAsync() that does not. The
 * next recv() takes it, close() rolls it back. A value given back by a cancelled receiver may sit
 * in front of it (ring_push_front()), so the slot's value is always the buffer's newest.
 * ------------------------------------------------------------------------------------------- */

/* Copies the value in. */
static void slot_fill(async_channel_t *ch, zval *value)
{
	ZEND_ASSERT(!ch->slot && ch->slot_owner == NULL && "one value in the slot at a time");
	Z_TRY_ADDREF_P(value);
	ring_push(ch, value);
	ch->slot = true;
}

/* Destroys the slot's value, untaken. Its owner, if any, is the caller's business. */
static void slot_roll_back(async_channel_t *ch)
{
	if (!ch->slot) {
		return;
	}
	ZEND_ASSERT(ch->buffer.count > 0);
	zval *newest = ASYNC_RING_AT(&ch->buffer, ch->buffer.count - 1, zval);
	zval value;
	ZVAL_COPY_VALUE(&value, newest);
	ch->buffer.count--;
	ch->slot = false;
	zval_ptr_dtor(&value);
}

/* ---------------------------------------------------------------------------------------------
 * Timers: armed lazily while a receiver (or sender) waits, disarmed when nobody does. Traffic
 * only moves `since` forward: when the timer fires early for that reason it is re-armed for the
 * rest, so busy channels never touch the timer heap. Soft timers are hidden events: they never
 * keep the loop alive nor hold back deadlock detection.
 * ------------------------------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
	return async_reactor_hrtime() / 1000000;
}

static void channel_timer_disarm(async_channel_t *ch, int kind)
{
	async_channel_timer_t *t = &ch->timers[kind];
	zend_async_timer_event_t *timer = t->event;
	if (timer == NULL) {
		return;
	}
	t->event = NULL;
	timer->base.del_callback(&timer->base, &t->cb->base);
	t->cb->channel = NULL;
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&t->cb->base);
	t->cb = NULL;
	timer->base.stop(&timer->base);
	ZEND_ASYNC_EVENT_RELEASE(&timer->base);
}

static void channel_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);

static bool channel_timer_start(async_channel_t *ch, int kind, uint64_t ms)
{
	async_channel_timer_t *t = &ch->timers[kind];
	zend_async_timer_event_t *timer = ZEND_ASYNC_NEW_TIMER_EVENT((zend_ulong) ms, false);
	if (timer == NULL) {
		return false;
	}
	if (!ch->hard_timeouts) {
		ZEND_ASYNC_EVENT_SET_HIDDEN(&timer->base);
	}
	async_channel_timer_cb_t *cb = (async_channel_timer_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(
		channel_timer_fired, sizeof(async_channel_timer_cb_t));
	cb->channel = ch;
	cb->kind = kind;
	timer->base.add_callback(&timer->base, &cb->base);
	t->event = timer;
	t->cb = cb;
	return timer->base.start(&timer->base);
}

/* A party starts waiting: arm its timer unless it runs already. */
static bool channel_timer_arm(async_channel_t *ch, int kind)
{
	async_channel_timer_t *t = &ch->timers[kind];
	if (t->ms == 0 || t->event != NULL) {
		return true;
	}
	t->since = now_ms();
	return channel_timer_start(ch, kind, t->ms);
}

/* Traffic flowed: the wait of whoever still waits starts over. */
static zend_always_inline void channel_traffic(async_channel_t *ch, int kind)
{
	if (UNEXPECTED(ch->timers[kind].event != NULL)) {
		ch->timers[kind].since = now_ms();
	}
}

/* Nobody waits on this side any more (the slot's owner waits for consumers too): its timer has
 * nothing to measure. */
static zend_always_inline void channel_side_idle(async_channel_t *ch, int kind)
{
	if (UNEXPECTED(ch->timers[kind].event != NULL)
		&& (kind == TIMER_PRODUCERS ? ch->receivers.length : ch->senders.length + (ch->slot_owner != NULL)) == 0) {
		channel_timer_disarm(ch, kind);
	}
}

/* ---------------------------------------------------------------------------------------------
 * Waiter queues
 * ------------------------------------------------------------------------------------------- */

/* The oldest waiter of a queue, still linked; NULL when empty. */
static zend_always_inline async_channel_waiter_t *queue_first(const async_channel_queue_t *q)
{
	return q->first ? ASYNC_LIST_ITEM(q->first, async_channel_waiter_t, node) : NULL;
}

static zend_always_inline void waiter_link(async_channel_queue_t *q, async_channel_waiter_t *w)
{
	ZEND_ASSERT(w->queue == NULL && "a waiter is in one queue at a time");
	async_list_append(q, &w->node);
	w->queue = q;
}

/* Inline: every message unlinks a waiter, and the park path asks again after its wait. */
static zend_always_inline void waiter_unlink(async_channel_t *ch, async_channel_waiter_t *w)
{
	async_channel_queue_t *q = w->queue;
	if (q == NULL) {
		return;
	}
	async_list_remove(q, &w->node);
	w->queue = NULL;
	if (q->length == 0) {
		channel_side_idle(ch, q == &ch->receivers ? TIMER_PRODUCERS : TIMER_CONSUMERS);
	}
}

static zend_always_inline bool waiter_waiting(async_channel_waiter_t *w)
{
	if (UNEXPECTED(w->future != NULL)) {
		/* Not cancelled by its reader, and someone could still read it: a future whose Future
		 * objects are all gone and that nobody subscribed to would swallow the value. */
		zend_async_event_t *ev = &w->future->event;
		return !ZEND_ASYNC_EVENT_IS_CLOSED(ev) && (ZEND_ASYNC_EVENT_REFCOUNT(ev) > 1 || ev->callbacks.length > 0);
	}
	return ZEND_ASYNC_WAKER_WAITING(w->cb.coroutine->waker);
}

/* Out of its queue for good. A future waiter belongs to the queue: it goes with it. */
static void waiter_remove(async_channel_t *ch, async_channel_waiter_t *w)
{
	waiter_unlink(ch, w);
	if (UNEXPECTED(w->future != NULL)) {
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->cb.base);
	}
}

static void waiter_settle_future(async_channel_t *ch, async_channel_waiter_t *w)
{
	if (w->state == WAITER_DONE) {
		async__future_resolve(w->future, &w->value);
	} else {
		zend_object *error = async__channel_exception(ch->reason);
		async__future_reject(w->future, error);
		OBJ_RELEASE(error);
	}
}

/* The oldest waiter still waiting. One that was cancelled, or whose token fired, but that has
 * not run yet is dropped: it must not be handed a value (a cancelled sender's value is withdrawn). */
static async_channel_waiter_t *queue_next_slow(async_channel_t *ch, async_channel_queue_t *q)
{
	while (q->first != NULL) {
		async_channel_waiter_t *w = queue_first(q);
		if (EXPECTED(waiter_waiting(w))) {
			return w;
		}
		waiter_remove(ch, w);
	}
	return NULL;
}

/* Inline: the head is waiting on every message but those racing a cancellation. */
static zend_always_inline async_channel_waiter_t *queue_next(async_channel_t *ch, async_channel_queue_t *q)
{
	if (q->first == NULL) {
		return NULL;
	}
	async_channel_waiter_t *w = queue_first(q);
	return EXPECTED(waiter_waiting(w)) ? w : queue_next_slow(ch, q);
}

static void waiter_wake_future(async_channel_t *ch, async_channel_waiter_t *w)
{
	waiter_unlink(ch, w);
	waiter_settle_future(ch, w);
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->cb.base);
}

/* Inline: a parked coroutine is woken on every rendezvous message. */
static zend_always_inline void waiter_wake(async_channel_t *ch, async_channel_waiter_t *w, async_channel_waiter_state state)
{
	ZEND_ASSERT(w->state == WAITER_PARKED && (w->queue != NULL || w == ch->slot_owner)
		&& "only a parked waiter, queued or owning the slot, is woken");
	w->state = state;
	if (UNEXPECTED(w->future != NULL)) {
		waiter_wake_future(ch, w);
		return;
	}
	waiter_unlink(ch, w);
	/* zend_async_waker_callback_resolve() without a result, inline: the first event to fire wins.
	 * The channel is the core's own primitive: it queues through the scheduler directly. */
	if (EXPECTED(zend_async_waker_take(&w->cb, CH_EVENT(ch)))) {
		async__scheduler_queue_enter(w->cb.coroutine);
	}
}

/* Values handed to a woken coroutine are promised until it runs; a future holds its value. */
static zend_always_inline void waiter_promise(async_channel_t *ch, async_channel_waiter_t *w)
{
	if (EXPECTED(w->future == NULL)) {
		ch->promised++;
	}
}

/* Only a marker: waiters live in the queues, never in the callback vector, so nothing calls it. */
static void channel_waiter_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
}

static void channel_waiter_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	async_channel_waiter_t *w = (async_channel_waiter_t *) callback;
	zval_ptr_dtor(&w->value); /* a pending recvAsync()'s, never settled */
	if (w->future != NULL) {
		ZEND_ASYNC_EVENT_RELEASE(&w->future->event);
	}
	efree(w);
}

#define IS_WAITER(cb) ((cb)->callback == channel_waiter_notify)

/* The queue was chosen by the parking code; the subscription takes a reference. */
static zend_always_inline void waiter_subscribe(async_channel_waiter_t *w)
{
	w->subscribed = true;
	w->cb.base.ref_count++;
}

static zend_always_inline bool waiter_unsubscribe(async_channel_t *ch, async_channel_waiter_t *w)
{
	if (!w->subscribed) {
		return false;
	}
	w->subscribed = false;
	waiter_unlink(ch, w);
	zend_async_event_callback_unref(&w->cb.base, CH_EVENT(ch));
	return true;
}

static bool channel_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!IS_WAITER(callback)) {
		return zend_async_callbacks_push(event, callback);
	}
	waiter_subscribe((async_channel_waiter_t *) callback);
	return true;
}

static bool channel_del_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	if (!IS_WAITER(callback)) {
		return zend_async_callbacks_remove(event, callback);
	}
	return waiter_unsubscribe((async_channel_t *) event, (async_channel_waiter_t *) callback);
}

/* ---------------------------------------------------------------------------------------------
 * Moving values. Never runs user code: a channel operation can be made from a reactor callback.
 * ------------------------------------------------------------------------------------------- */

/* Room a newcomer may use: what no woken sender has reserved. On a rendezvous channel, the one
 * slot, empty and not granted; given-back values fill it too. */
static zend_always_inline bool channel_has_room(async_channel_t *ch)
{
	if (UNEXPECTED(ch->unbounded)) {
		return true;
	}
	if (ch->capacity == 0) {
		return ch->buffer.count == 0 && ch->reserved == 0;
	}
	return ch->buffer.count + ch->reserved < ch->capacity;
}

/* Room freed: the oldest waiting senders are granted it, reserved until they run and move their
 * values in. Nobody else can take a granted slot, so a parked sender cannot be overtaken for ever. */
static void channel_grant(async_channel_t *ch)
{
	async_channel_waiter_t *w;
	while (channel_has_room(ch) && (w = queue_next(ch, &ch->senders)) != NULL) {
		ch->reserved++;
		waiter_wake(ch, w, WAITER_SLOT);
	}
}

/* The slot's value was taken: its owner's send() has succeeded. */
static void slot_taken(async_channel_t *ch)
{
	async_channel_waiter_t *owner = ch->slot_owner;
	ch->slot = false;
	if (owner != NULL) {
		waiter_wake(ch, owner, WAITER_DONE);
		ch->slot_owner = NULL;
		channel_side_idle(ch, TIMER_CONSUMERS);
	}
}

/* The slot's owner stopped waiting (cancelled, its token fired) before its value was taken: the
 * value is withdrawn, never delivered, and the slot passes to the next sender. */
static void slot_withdraw(async_channel_t *ch)
{
	ZEND_ASSERT(ch->slot && ch->slot_owner != NULL);
	ch->slot_owner = NULL;
	slot_roll_back(ch);
	channel_side_idle(ch, TIMER_CONSUMERS);
	channel_grant(ch);
}

/* sendAsync() on a rendezvous channel that no receiver waits on: the value waits in the free
 * slot, with no owner. */
static bool slot_park(async_channel_t *ch, zval *value)
{
	if (ch->capacity != 0 || ch->unbounded || ch->closed || !channel_has_room(ch)) {
		return false;
	}
	slot_fill(ch, value);
	return true;
}

/* send without waiting: to the oldest parked receiver, else into the buffer; copies the value.
 * PUT_SLOT: a rendezvous channel's slot is free for it (the caller decides whether to wait
 * there). A granted sender uses its reservation instead of free room. */
static zend_always_inline put_result channel_put(async_channel_t *ch, zval *value, bool granted)
{
	if (!granted && !channel_has_room(ch)) {
		return PUT_FULL;
	}
	async_channel_waiter_t *w = queue_next(ch, &ch->receivers);
	if (w != NULL) {
		ZVAL_COPY(&w->value, value);
		waiter_promise(ch, w);
		channel_traffic(ch, TIMER_PRODUCERS);
		waiter_wake(ch, w, WAITER_DONE);
		if (granted && ch->senders.first != NULL) {
			/* The reservation was used up without filling room: the next sender's turn. */
			channel_grant(ch);
		}
		return PUT_DONE;
	}
	if (ch->capacity == 0 && !ch->unbounded) {
		return PUT_SLOT;
	}
	Z_TRY_ADDREF_P(value);
	ring_push(ch, value);
	return PUT_DONE;
}

/* recv without waiting: the oldest buffered value; the room it frees is granted to the oldest
 * parked sender. An empty buffer means nothing to take, even when granted senders will soon move
 * their values in: the receiver parks until one does. */
static zend_always_inline bool channel_take(async_channel_t *ch, zval *result)
{
	if (UNEXPECTED(ch->slot_owner != NULL) && UNEXPECTED(!waiter_waiting(ch->slot_owner))) {
		slot_withdraw(ch);
	}
	if (ch->buffer.count == 0) {
		return false;
	}
	ring_pop(ch, result);
	if (ch->buffer.count == 0 && ch->slot) {
		slot_taken(ch); /* the slot's value is the newest: it goes last */
	}
	if (ch->senders.first != NULL) {
		channel_grant(ch);
	}
	channel_traffic(ch, TIMER_CONSUMERS);
	return true;
}

/* A woken receiver could not use its value (cancelled before it ran): it is still the oldest
 * value, so the next receiver gets it, or it goes back to the front of the buffer. Takes over
 * the reference. The buffer may exceed the capacity by these few values; nothing is lost. */
static void channel_give_back(async_channel_t *ch, zval *value)
{
	async_channel_waiter_t *w = queue_next(ch, &ch->receivers);
	if (w != NULL) {
		ZVAL_COPY_VALUE(&w->value, value);
		waiter_promise(ch, w);
		waiter_wake(ch, w, WAITER_DONE);
		return;
	}
	ring_push_front(ch, value);
}

/* ---------------------------------------------------------------------------------------------
 * Cancellation tokens (as await() does it: OperationCanceledException, the token's error as
 * previous).
 * ------------------------------------------------------------------------------------------- */

/* Token handling is the wait path's (wait.h). */

/* ---------------------------------------------------------------------------------------------
 * Parking
 * ------------------------------------------------------------------------------------------- */

/* A sender's value was delivered, then a Coroutine::cancel() reached it before it ran. A send()
 * that throws must mean "not delivered", so the cancellation moves to the coroutine's next
 * suspension point, as for a cancel that finds a coroutine running. Exits are never deferred. */
static bool channel_defer_cancellation(zend_coroutine_t *co)
{
	zend_object *ex = EG(exception);
	if (!instanceof_function(ex->ce, async__ce_async_cancellation)) {
		return false;
	}
	async_coroutine_t *aco = ASYNC_CO_FROM_CORO(co);
	GC_ADDREF(ex);
	zend_clear_exception(); /* also undoes the throw's opline switch when a user frame is current */
	if (aco->pending_cancel == NULL) {
		aco->pending_cancel = ex;
	} else {
		OBJ_RELEASE(ex);
	}
	return true;
}

/* Every park needs a waiter; the channel keeps the last one, so a busy channel (ping-pong,
 * producers outrunning consumers) does not allocate per message. */
static async_channel_waiter_t *waiter_get(async_channel_t *ch, zend_coroutine_t *co)
{
	async_channel_waiter_t *w = ch->spare;
	if (w != NULL) {
		ch->spare = NULL;
		w->cb.coroutine = co;
		w->cb.event = NULL;
		w->state = WAITER_PARKED;
		return w;
	}
	w = (async_channel_waiter_t *) zend_async_coroutine_callback_new(co,
		channel_waiter_notify, sizeof(async_channel_waiter_t));
	w->cb.base.dispose = channel_waiter_dispose;
	ZVAL_UNDEF(&w->value);
	return w;
}

/* Drops the parking code's reference; a waiter nobody else holds becomes the spare. */
static void waiter_put(async_channel_t *ch, async_channel_waiter_t *w)
{
	if (w->cb.base.ref_count == 1 && ch->spare == NULL && !w->subscribed && w->queue == NULL) {
		i_zval_ptr_dtor(&w->value); /* none left, but cheap to be sure (inline) */
		ZVAL_UNDEF(&w->value);
		ch->spare = w;
		return;
	}
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&w->cb.base);
}

/* How a wait ended, once the coroutine runs again and the waiter is settled. */
static park_result park_outcome(async_channel_t *ch, zend_coroutine_t *co, async_channel_waiter_state state)
{
	if (EG(exception) && ch->closed && ch->reason == ASYNC_CHANNEL_SCOPE_DISPOSED
		&& (state == WAITER_CLOSED || state == WAITER_SLOT) && channel_defer_cancellation(co)) {
		/* The owner scope's end closed the channel before it cancelled its coroutines: the
		 * waiter reports why it stopped waiting (the channel's ChannelException, spec §8.7) and
		 * meets the cancellation at its next suspension point. */
		return PARK_RETRY;
	}
	if (EG(exception)) {
		return PARK_ERROR; /* a sender that had not delivered: its value is withdrawn */
	}
	switch (state) {
		case WAITER_DONE: return PARK_DONE;
		case WAITER_SLOT: return PARK_SLOT;
		default: return PARK_RETRY;
	}
}

/* Parks the current coroutine until a hand-off, close(), its token or a cancellation wakes it:
 * at the end of queue `q`, or (q NULL, a rendezvous send() that found the slot free) as the
 * slot's owner, its value in the slot. A queued sender comes back with a slot (PARK_SLOT), a
 * receiver with a value in *result (PARK_DONE), the slot's owner with its value taken
 * (PARK_DONE). Inline in send() and recv(): a call level between the VM and the switch costs a
 * mispredicted return each time the coroutine is resumed (core/core.h). */
static zend_always_inline park_result channel_park(async_channel_t *ch, async_channel_queue_t *q, zval *value, zend_async_event_t *token, zval *result)
{
	bool is_sender = q != &ch->receivers;
	zend_coroutine_t *co = async__wait_begin(token, "wait on a channel");
	if (co == NULL) {
		return PARK_ERROR;
	}
	async_channel_waiter_t *w = waiter_get(ch, co);
	/* Ours: the suspend may clean the waker (a pending cancellation) before we read the state. */
	ZEND_ASYNC_EVENT_CALLBACK_ADD_REF(&w->cb.base);
	if (EXPECTED(q != NULL)) {
		waiter_link(q, w);
	} else {
		slot_fill(ch, value);
		ch->slot_owner = w;
	}

	/* The waiter is in our queue already: the waker only lists the channel (what the coroutine
	 * waits for), without the ABI's subscription calls, unless it has no room for it inline. */
	bool listed = true;
	if (EXPECTED(async__wait_list_own(co, CH_EVENT(ch), &w->cb))) {
		waiter_subscribe(w);
	} else {
		listed = async__wait_on(co, CH_EVENT(ch), false, NULL, &w->cb);
	}
	if (listed && channel_timer_arm(ch, is_sender ? TIMER_CONSUMERS : TIMER_PRODUCERS)) {
		async__wait_suspend_inline(co);
	}

	async_channel_waiter_state state = w->state;
	if (!is_sender && state == WAITER_DONE) {
		ZEND_ASSERT(ch->promised > 0 && Z_TYPE(w->value) != IS_UNDEF && "a woken receiver was given its value");
		ch->promised--;
		ZVAL_COPY_VALUE(result, &w->value);
		ZVAL_UNDEF(&w->value);
	}
	if (UNEXPECTED(ch->slot_owner == w)) {
		/* Our value is still in the slot, untaken: cancelled, the token fired, or the wait could
		 * not begin. A receiver that came meanwhile withdrew it already (channel_take()). */
		ZEND_ASSERT(state == WAITER_PARKED);
		slot_withdraw(ch);
	}
	waiter_unsubscribe(ch, w); /* unlinks it */
	async__wait_end_own(co, &w->cb);
	waiter_unlink(ch, w);       /* in case the subscription itself failed */
	waiter_put(ch, w);

	if (state == WAITER_SLOT) {
		ZEND_ASSERT(ch->reserved > 0);
		ch->reserved--;
		if (EG(exception)) {
			/* Granted, then cancelled before it ran: the cancellation wins, nothing was sent,
			 * and the slot passes to the next sender (a receiver may be parked for it). */
			channel_grant(ch);
		}
	} else if (EG(exception) && state == WAITER_DONE) {
		if (!is_sender) {
			/* Given a value, then cancelled before it ran: the value goes to someone else. */
			channel_give_back(ch, result);
			ZVAL_UNDEF(result);
		} else if (channel_defer_cancellation(co)) {
			/* The slot's value was taken before the cancel came: the send succeeded. */
			return PARK_DONE;
		}
	}
	return park_outcome(ch, co, state);
}

/* ---------------------------------------------------------------------------------------------
 * send / recv
 * ------------------------------------------------------------------------------------------- */

/* A sender that finds no room parks in the queue; once granted a slot it moves its value in
 * when it runs. On a rendezvous channel it then waits in the slot for a receiver, unless one
 * waits already. */
static zend_always_inline channel_status channel_send_ex(async_channel_t *ch, zval *value, zend_async_event_t *token, bool can_park)
{
	bool granted = false;
	for (;;) {
		if (ch->closed) {
			return CH_CLOSED;
		}
		put_result put = channel_put(ch, value, granted);
		if (put == PUT_DONE) {
			return CH_OK;
		}
		granted = false;
		if (!can_park) {
			return CH_WOULD_BLOCK;
		}
		switch (channel_park(ch, put == PUT_SLOT ? NULL : &ch->senders, value, token, NULL)) {
			case PARK_DONE: return CH_OK;
			case PARK_SLOT: granted = true; continue;
			case PARK_RETRY: continue;
			default: return CH_ERROR;
		}
	}
}

/* Buffered values are drained even after close(); then CH_CLOSED. */
static zend_always_inline channel_status channel_recv_ex(async_channel_t *ch, zval *result, zend_async_event_t *token, bool can_park)
{
	ZVAL_UNDEF(result);
	for (;;) {
		if (channel_take(ch, result)) {
			return CH_OK;
		}
		if (ch->closed) {
			return CH_CLOSED;
		}
		if (!can_park) {
			return CH_WOULD_BLOCK;
		}
		switch (channel_park(ch, &ch->receivers, NULL, token, result)) {
			case PARK_DONE: return CH_OK;
			case PARK_RETRY: continue;
			default: return CH_ERROR;
		}
	}
}

/* ---------------------------------------------------------------------------------------------
 * Close and the deadlock resolver
 * ------------------------------------------------------------------------------------------- */

static void soft_link(async_channel_t *ch)
{
	ch->soft_prev = NULL;
	ch->soft_next = ASYNC_G(soft_channels);
	if (ASYNC_G(soft_channels)) {
		ASYNC_G(soft_channels)->soft_prev = ch;
	}
	ASYNC_G(soft_channels) = ch;
	ch->soft_linked = true;
}

static void soft_unlink(async_channel_t *ch)
{
	if (!ch->soft_linked) {
		return;
	}
	if (ch->soft_prev) {
		ch->soft_prev->soft_next = ch->soft_next;
	} else {
		ASYNC_G(soft_channels) = ch->soft_next;
	}
	if (ch->soft_next) {
		ch->soft_next->soft_prev = ch->soft_prev;
	}
	ch->soft_prev = ch->soft_next = NULL;
	ch->soft_linked = false;
}

/* Wakes every waiter of a queue; they find the channel closed when they run. */
static void queue_wake_closed(async_channel_t *ch, async_channel_queue_t *q)
{
	async_channel_waiter_t *w;
	while ((w = queue_first(q)) != NULL) {
		if (waiter_waiting(w)) {
			waiter_wake(ch, w, WAITER_CLOSED);
		} else {
			waiter_remove(ch, w);
		}
	}
}

/* Idempotent, the first reason wins. Buffered values stay for recv() to drain, but not the
 * rendezvous slot's: its send() fails (or its sendAsync() value is destroyed). A sender whose
 * value was already taken was woken with success before and is not failed; one granted a slot
 * that has not run finds the channel closed when it does. */
static void channel_close(async_channel_t *ch, async_channel_close_reason reason)
{
	if (ch->closed) {
		return;
	}
	ch->closed = true;
	ch->reason = reason;
	slot_roll_back(ch);
	async_channel_waiter_t *owner = ch->slot_owner;
	if (owner != NULL) {
		if (waiter_waiting(owner)) {
			waiter_wake(ch, owner, WAITER_CLOSED);
		}
		ch->slot_owner = NULL;
	}
	ZEND_ASYNC_EVENT_SET_CLOSED(CH_EVENT(ch));
	soft_unlink(ch);
	channel_timer_disarm(ch, TIMER_PRODUCERS);
	channel_timer_disarm(ch, TIMER_CONSUMERS);
	queue_wake_closed(ch, &ch->receivers);
	queue_wake_closed(ch, &ch->senders);
	if (CH_EVENT(ch)->callbacks.length > 0) {
		zend_object *error = async__channel_exception(reason);
		ZEND_ASYNC_CALLBACKS_NOTIFY(CH_EVENT(ch), NULL, error);
		OBJ_RELEASE(error);
	}
}

void async__channel_close(zend_async_channel_t *channel, async_channel_close_reason reason)
{
	channel_close((async_channel_t *) channel, reason);
}

/* A blocked party: a parked coroutine, or (with_futures) a pending recvAsync() that some
 * coroutine may be awaiting. Only coroutines make the timers run. */
static bool queue_has_waiting(async_channel_queue_t *q, bool with_futures)
{
	for (async_list_node_t *n = q->first; n != NULL; n = n->next) {
		async_channel_waiter_t *w = ASYNC_LIST_ITEM(n, async_channel_waiter_t, node);
		if ((with_futures || w->future == NULL) && waiter_waiting(w)) {
			return true;
		}
	}
	return false;
}

/* The slot's owner is a blocked sender too, outside the queue. */
static bool senders_waiting(async_channel_t *ch, bool with_futures)
{
	return (ch->slot_owner != NULL && waiter_waiting(ch->slot_owner)) || queue_has_waiting(&ch->senders, with_futures);
}

static bool channels_resolve_deadlock(void)
{
	bool resolved = false;
	async_channel_t *ch = ASYNC_G(soft_channels);
	while (ch != NULL) {
		async_channel_t *next = ch->soft_next;
		if (queue_has_waiting(&ch->receivers, true) || senders_waiting(ch, true)) {
			/* A blocked party holds the object, so closing cannot free it (nor `next`). */
			channel_close(ch, ASYNC_CHANNEL_DEADLOCK);
			resolved = true;
		}
		ch = next;
	}
	return resolved;
}

/* The timer of a side fired. Traffic since it was armed only moved `since`: re-arm for the rest. */
static void channel_timer_fired(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	async_channel_timer_cb_t *cb = (async_channel_timer_cb_t *) callback;
	async_channel_t *ch = cb->channel;
	int kind = cb->kind;
	if (ch == NULL) {
		return;
	}
	channel_timer_disarm(ch, kind); /* a fired one-shot timer is done; the notify holds it */
	bool waiting = kind == TIMER_PRODUCERS ? queue_has_waiting(&ch->receivers, false) : senders_waiting(ch, false);
	if (ch->closed || !waiting) {
		return;
	}
	async_channel_timer_t *t = &ch->timers[kind];
	uint64_t now = now_ms(), deadline = t->since + t->ms;
	if (now < deadline) {
		if (channel_timer_start(ch, kind, deadline - now)) {
			return;
		}
		if (EG(exception)) {
			zend_clear_exception();
		}
	}
	channel_close(ch, kind == TIMER_PRODUCERS ? ASYNC_CHANNEL_NO_PRODUCERS : ASYNC_CHANNEL_NO_CONSUMERS);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static bool channel_event_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

static zend_string *channel_info(zend_async_event_t *event)
{
	async_channel_t *ch = (async_channel_t *) event;
	return zend_strpprintf(0, "Channel(capacity=%u, receivers=%u, senders=%u, buffered=%u%s%s)",
		ch->capacity, ch->receivers.length, ch->senders.length + (ch->slot_owner != NULL), ch->buffer.count + ch->promised,
		ch->closed ? ", closed: " : "", ch->closed ? reason_cases[ch->reason] : "");
}

/* ---------------------------------------------------------------------------------------------
 * The C API (zend_async_channel_t methods)
 * ------------------------------------------------------------------------------------------- */

static bool api_send(zend_async_channel_t *channel, zval *value)
{
	async_channel_t *ch = (async_channel_t *) channel;
	switch (channel_send_ex(ch, value, NULL, true)) {
		case CH_OK: return true;
		case CH_CLOSED: channel_throw_closed(ch); return false;
		default: return false;
	}
}

static bool api_receive(zend_async_channel_t *channel, zval *result, zend_async_event_t *cancellation)
{
	async_channel_t *ch = (async_channel_t *) channel;
	switch (channel_recv_ex(ch, result, cancellation, true)) {
		case CH_OK: return true;
		case CH_CLOSED: channel_throw_closed(ch); return false;
		default: return false;
	}
}

static bool api_try_send(zend_async_channel_t *channel, zval *value)
{
	return channel_send_ex((async_channel_t *) channel, value, NULL, false) == CH_OK;
}

static bool api_try_receive(zend_async_channel_t *channel, zval *result)
{
	return channel_recv_ex((async_channel_t *) channel, result, NULL, false) == CH_OK;
}

static void api_close(zend_async_channel_t *channel)
{
	channel_close((async_channel_t *) channel, ASYNC_CHANNEL_EXPLICIT);
}

/* ---------------------------------------------------------------------------------------------
 * Object lifecycle
 * ------------------------------------------------------------------------------------------- */

static const async_event_methods_t channel_event_methods = {
	.add_callback = channel_add_callback,
	.del_callback = channel_del_callback,
	.dispose = channel_event_dispose,
	.info = channel_info,
};

static zend_object *channel_object_create(zend_class_entry *ce)
{
	async_channel_t *ch = async__object_new(sizeof(async_channel_t), XtOffsetOf(async_channel_t, std), ce,
		&channel_handlers);

	async__event_init_in_object(CH_EVENT(ch), &channel_event_methods, XtOffsetOf(async_channel_t, std), 0);
	ch->base.send = api_send;
	ch->base.receive = api_receive;
	ch->base.close = api_close;
	ch->base.try_send = api_try_send;
	ch->base.try_receive = api_try_receive;
	return &ch->std;
}

/* ---------------------------------------------------------------------------------------------
 * Binding to the creating scope (spec §8.6): the channel listens to the scope's event without
 * holding a reference; when the scope is cancelled or disposed, the channel closes.
 * ------------------------------------------------------------------------------------------- */

typedef struct _channel_scope_cb_s {
	zend_async_event_callback_t base;
	async_channel_t *channel;   /* NULL once the channel is freed */
	zend_async_scope_t *scope;  /* NULL once the scope is gone */
} channel_scope_cb_t;

static void channel_scope_notified(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	channel_scope_cb_t *cb = (channel_scope_cb_t *) callback;
	async_scope_notice_t notice = result ? *(const async_scope_notice_t *) result : ASYNC_SCOPE_DISPOSED;
	if (notice != ASYNC_SCOPE_CANCELLED && notice != ASYNC_SCOPE_DISPOSED && notice != ASYNC_SCOPE_FREED) {
		return;
	}
	cb->scope = NULL;
	async_channel_t *ch = cb->channel;
	/* Unsubscribing during the notification is safe (the vector tracks its iterator). */
	event->del_callback(event, callback);
	if (ch != NULL && notice != ASYNC_SCOPE_FREED) {
		channel_close(ch, ASYNC_CHANNEL_SCOPE_DISPOSED);
	}
}

static void channel_bind_scope(async_channel_t *ch)
{
	zend_coroutine_t *coro = ZEND_ASYNC_G(coroutine);
	zend_async_scope_t *scope = coro != NULL ? coro->scope : NULL;
	if (scope == NULL || ZEND_ASYNC_EVENT_IS_CLOSED(&scope->event)) {
		return; /* before launch: the main scope only ends with the request */
	}
	channel_scope_cb_t *cb = (channel_scope_cb_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(channel_scope_notified,
		sizeof(channel_scope_cb_t));
	cb->channel = ch;
	cb->scope = scope;
	scope->event.add_callback(&scope->event, &cb->base); /* the scope's reference */
	ch->owner = cb;                                       /* ours */
}

static void channel_unbind_scope(async_channel_t *ch)
{
	channel_scope_cb_t *cb = ch->owner;
	if (cb == NULL) {
		return;
	}
	ch->owner = NULL;
	cb->channel = NULL;
	if (cb->scope != NULL) {
		zend_async_scope_t *scope = cb->scope;
		cb->scope = NULL;
		scope->event.del_callback(&scope->event, &cb->base);
	}
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&cb->base);
}

/* The object is going away (last reference, or shutdown): whoever still listens learns why. */
static void channel_object_dtor(zend_object *object)
{
	channel_close(CH_FROM_OBJ(object), ASYNC_CHANNEL_DISPOSED);
}

/* Waiters can only still be linked when the engine frees objects regardless of references
 * (shutdown after a fatal error): they are detached so their coroutines' clean-up finds nothing. */
static void queue_detach(async_channel_t *ch, async_channel_queue_t *q)
{
	while (q->first != NULL) {
		waiter_remove(ch, queue_first(q));
	}
}

static void channel_object_free(zend_object *object)
{
	async_channel_t *ch = CH_FROM_OBJ(object);
	soft_unlink(ch);
	channel_unbind_scope(ch);
	queue_detach(ch, &ch->receivers);
	queue_detach(ch, &ch->senders);
	ch->slot_owner = NULL;
	channel_timer_disarm(ch, TIMER_PRODUCERS);
	channel_timer_disarm(ch, TIMER_CONSUMERS);
	if (ch->spare) {
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&ch->spare->cb.base);
		ch->spare = NULL;
	}
	zval value;
	while (ch->buffer.count > 0) {
		ring_pop(ch, &value);
		zval_ptr_dtor(&value);
	}
	if (ch->buffer.data) {
		async_ring_free(&ch->buffer);
	}
	if (ch->base.user_data) {
		efree(ch->base.user_data);
		ch->base.user_data = NULL;
	}
	zend_async_callbacks_free(CH_EVENT(ch));
	zend_object_std_dtor(object);
}

/* Buffered values belong to the channel. */
static HashTable *channel_object_get_gc(zend_object *object, zval **table, int *num)
{
	async_channel_t *ch = CH_FROM_OBJ(object);
	if (ch->buffer.count == 0) {
		*table = NULL;
		*num = 0;
		return NULL;
	}
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	for (uint32_t i = 0; i < ch->buffer.count; i++) {
		zend_get_gc_buffer_add_zval(buf, ASYNC_RING_AT(&ch->buffer, i, zval));
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* ZEND_ASYNC_NEW_CHANNEL: an Async\Channel object; the caller owns its one reference. */
static zend_async_channel_t *api_new_channel(size_t buffer_size, bool resizable, bool thread_safe, size_t extra_size)
{
	if (thread_safe) {
		zend_throw_error(NULL, "Async: channels shared between threads are not supported: a channel belongs to the thread (the request) that made it");
		return NULL;
	}
	if (buffer_size > INT32_MAX) {
		zend_value_error("Async: channel buffer size must be between 0 and %d", INT32_MAX);
		return NULL;
	}
	async_channel_t *ch = CH_FROM_OBJ(channel_object_create(async__ce_channel));
	ch->capacity = (uint32_t) buffer_size;
	ch->unbounded = resizable;
	ch->constructed = true;
	if (extra_size > 0) {
		ch->base.user_data = ecalloc(1, extra_size);
	}
	return &ch->base;
}

/* ---------------------------------------------------------------------------------------------
 * Iteration: foreach receives until the channel is closed and drained.
 * ------------------------------------------------------------------------------------------- */

static void channel_iterator_fetch(async_iterator_t *iter)
{
	async_channel_t *ch = CH_FROM_OBJ(Z_OBJ(iter->it.data));
	if (channel_recv_ex(ch, &iter->current, NULL, true) == CH_CLOSED && ch->reason != ASYNC_CHANNEL_EXPLICIT) {
		/* Only an explicit close() ends the loop quietly: a channel closed by a producer or
		 * consumer timeout, the deadlock layer or its scope throws its ChannelException from
		 * the loop, so the loop cannot mistake a failure for the end of the stream. (CH_ERROR:
		 * its exception is already thrown.) */
		zend_throw_exception_internal(async__channel_exception(ch->reason));
	}
}

/* per-process: constant */
static const async_iterator_ops_t channel_iterator_ops = {
	.fetch = channel_iterator_fetch,
	.by_ref_error = "Cannot iterate channel by reference",
};

static zend_object_iterator *channel_get_iterator(zend_class_entry *ce, zval *object, int by_ref)
{
	return async__iterator_new(object, by_ref, &channel_iterator_ops);
}

/* ---------------------------------------------------------------------------------------------
 * Methods
 * ------------------------------------------------------------------------------------------- */

static bool parse_bound(zend_long value, uint32_t arg)
{
	if (value < 0 || value > INT32_MAX) {
		zend_argument_value_error(arg, "must be between 0 and %d", INT32_MAX);
		return false;
	}
	return true;
}

ZEND_METHOD(Async_Channel, __construct)
{
	zend_long capacity = 0, no_producer = 0, no_consumer = 0;
	bool hard = false;
	ZEND_PARSE_PARAMETERS_START(0, 4)
		Z_PARAM_OPTIONAL
		Z_PARAM_LONG(capacity)
		Z_PARAM_LONG(no_producer)
		Z_PARAM_LONG(no_consumer)
		Z_PARAM_BOOL(hard)
	ZEND_PARSE_PARAMETERS_END();

	async_channel_t *ch = THIS_CHANNEL();
	if (ch->constructed) {
		zend_throw_error(NULL, "Async\\Channel is already initialized");
		RETURN_THROWS();
	}
	if (!parse_bound(capacity, 1) || !parse_bound(no_producer, 2) || !parse_bound(no_consumer, 3)) {
		RETURN_THROWS();
	}
	ch->constructed = true;
	ch->capacity = (uint32_t) capacity;
	ch->timers[TIMER_PRODUCERS].ms = (uint32_t) no_producer;
	ch->timers[TIMER_CONSUMERS].ms = (uint32_t) no_consumer;
	ch->hard_timeouts = hard;
	if (!hard && (no_producer > 0 || no_consumer > 0)) {
		soft_link(ch);
	}
	channel_bind_scope(ch);
}

ZEND_METHOD(Async_Channel, send)
{
	zval *value;
	zend_object *token = NULL;
	ZEND_PARSE_PARAMETERS_START(1, 2)
		Z_PARAM_ZVAL(value)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(token, async__ce_completable)
	ZEND_PARSE_PARAMETERS_END();

	async_channel_t *ch = THIS_CHANNEL();
	channel_status status = channel_send_ex(ch, value, async__wait_token(token), true);
	if (status == CH_CLOSED) {
		channel_throw_closed(ch);
	}
}

ZEND_METHOD(Async_Channel, sendAsync)
{
	zval *value;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();

	async_channel_t *ch = THIS_CHANNEL();
	channel_status status = channel_send_ex(ch, value, NULL, false);
	RETURN_BOOL(status == CH_OK || (status == CH_WOULD_BLOCK && slot_park(ch, value)));
}

ZEND_METHOD(Async_Channel, recv)
{
	zend_object *token = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(token, async__ce_completable)
	ZEND_PARSE_PARAMETERS_END();

	async_channel_t *ch = THIS_CHANNEL();
	switch (channel_recv_ex(ch, return_value, async__wait_token(token), true)) {
		case CH_OK:
			return;
		case CH_CLOSED:
			channel_throw_closed(ch);
			RETURN_THROWS();
		default:
			RETURN_THROWS();
	}
}

/* A future: completed now with a value, rejected when closed and drained, else a receiver in
 * the FIFO like a parked recv() (it does not keep the channel alive nor run its timers). */
ZEND_METHOD(Async_Channel, recvAsync)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel_t *ch = THIS_CHANNEL();
	zend_future_t *future = async__future_new();
	zval value;
	if (channel_take(ch, &value)) {
		async__future_resolve(future, &value);
		zval_ptr_dtor(&value);
	} else if (ch->closed) {
		zend_object *error = async__channel_exception(ch->reason);
		async__future_reject(future, error);
		OBJ_RELEASE(error);
	} else {
		async_channel_waiter_t *w = (async_channel_waiter_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(
			channel_waiter_notify, sizeof(async_channel_waiter_t));
		w->cb.base.dispose = channel_waiter_dispose;
		ZVAL_UNDEF(&w->value);
		w->future = future;
		ZEND_ASYNC_EVENT_ADD_REF(&future->event);
		waiter_link(&ch->receivers, w);
	}
	RETVAL_OBJ(async__future_new_object(future));
	ZEND_ASYNC_EVENT_RELEASE(&future->event);
}

ZEND_METHOD(Async_Channel, close)
{
	ZEND_PARSE_PARAMETERS_NONE();
	channel_close(THIS_CHANNEL(), ASYNC_CHANNEL_EXPLICIT);
}

ZEND_METHOD(Async_Channel, isClosed)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_BOOL(THIS_CHANNEL()->closed);
}

ZEND_METHOD(Async_Channel, capacity)
{
	ZEND_PARSE_PARAMETERS_NONE();
	RETURN_LONG(THIS_CHANNEL()->capacity);
}

/* Held values, including those promised to woken receivers that have not run yet. */
ZEND_METHOD(Async_Channel, count)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel_t *ch = THIS_CHANNEL();
	RETURN_LONG((zend_long) ch->buffer.count + ch->promised);
}

ZEND_METHOD(Async_Channel, isEmpty)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel_t *ch = THIS_CHANNEL();
	RETURN_BOOL(ch->buffer.count + ch->promised == 0);
}

/* Only the buffer counts (not values promised to woken receivers, nor slots granted to woken
 * senders); a rendezvous channel is full while its one slot holds a value. */
ZEND_METHOD(Async_Channel, isFull)
{
	ZEND_PARSE_PARAMETERS_NONE();
	async_channel_t *ch = THIS_CHANNEL();
	if (ch->unbounded) {
		RETURN_FALSE;
	}
	RETURN_BOOL(ch->capacity == 0 ? ch->buffer.count > 0 : ch->buffer.count >= ch->capacity);
}

ZEND_METHOD(Async_Channel, getIterator)
{
	ZEND_PARSE_PARAMETERS_NONE();
	zend_create_internal_iterator_zval(return_value, ZEND_THIS);
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__channel_minit(void)
{
	async__ce_channel_close_reason = register_class_Async_ChannelCloseReason();
	async__ce_channel = register_class_Async_Channel(async__ce_awaitable, zend_ce_aggregate, zend_ce_countable);
	async__ce_channel->create_object = channel_object_create;
	async__ce_channel->get_iterator = channel_get_iterator;
	/* Registered by exceptions.c (its class entry is private there). */
	async__ce_channel_exception = zend_hash_str_find_ptr(CG(class_table),
		"async\\channelexception", sizeof("async\\channelexception") - 1);
	ZEND_ASSERT(async__ce_channel_exception != NULL);

	async__object_handlers_init(&channel_handlers, XtOffsetOf(async_channel_t, std), channel_object_dtor, channel_object_free, channel_object_get_gc);

	/* Only this slot: the rest of the table is scheduler.c's (NULL slots are left alone). */
	zend_async_scheduler_api_t api = { .new_channel = api_new_channel };
	if (!zend_async_scheduler_register(PHP_ASYNC_NAME, false, &api)) {
		return FAILURE; /* another implementation of the scheduler's table is registered */
	}
	async__class_register(ZEND_ASYNC_CLASS_CHANNEL, async__ce_channel);
	/* Deadlock layer 1 (spec §8.5): soft-timeout channels close before the scheduler gives up. */
	async__scheduler_add_deadlock_resolver(channels_resolve_deadlock);
	return SUCCESS;
}
