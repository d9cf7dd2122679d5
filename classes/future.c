/*
 * classes/future.c — Async\FutureState (the writer), Async\Future (the reader) and the future C API.
 *
 * Layout. The future event (zend_future_t) lives inside an Async\FutureState object, so it is
 * counted like a Zend object (F_ZEND_OBJ): `new FutureState` is that object itself, and every
 * Future is an event reference holding one reference to it. Because the shared future is a Zend
 * object, the GC can walk FutureState -> result/exception/chain callables -> child futures, and a
 * cycle through a future's own result or a callback's closure is collected like any other.
 * Futures created from C (ZEND_ASYNC_NEW_FUTURE, async__future_new) are the same hidden objects;
 * PHP only ever sees the Future wrappers for them.
 *
 * Chains. map/catch/finally subscribe a chain callback holding the child future. When the parent
 * settles, a link whose callable must run spawns a short internal coroutine for it (callables may
 * suspend, and notification can come from a reactor callback, where PHP code must not run); a
 * link that only passes the outcome through (map on error, catch on success) settles the child at
 * once, iteratively, so a long chain cannot exhaust the C stack.
 *
 * Disposal. When the shared future dies unused (no await, subscription, chain or ignore()) or with
 * an error nobody observed, a warning says so (spec §8.2.5); ignore() silences both.
 */
#include "php_async.h"
#include "classes/classes.h"
#include "core/core.h"
#include "zend_exceptions.h"
#include "zend_interfaces.h"
#include "future_arginfo.h"

zend_class_entry *async__ce_future_state;
zend_class_entry *async__ce_future;

/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers future_state_handlers;
/* per-process: object handlers, filled once at MINIT */
static zend_object_handlers future_handlers;

/* Private event bits (subtype range, after ZEND_FUTURE_F_THREAD_SAFE/F_IGNORED). */
#define ASYNC_FUTURE_F_REPORTED  (1u << 15) /* the disposal check already ran */
#define ASYNC_FUTURE_F_CANCELLED (1u << 16) /* settled by Future::cancel() */

typedef struct {
	zend_future_t future;  /* first: the event */
	async_future_reader_gone_fn reader_gone; /* see async__future_on_reader_gone() */
	zend_object *carried_from; /* finally(): the parent whose error this child carries on (one
	                            * reference): handled here, it is handled there (§8.2.5) */
	zend_object std;       /* Async\FutureState; extra_size bytes, if any, follow it */
} async_future_t;

/* The Async\Future object: an event reference (the ABI's ZEND_ASYNC_EVENT_REF layout). */
typedef struct {
	ZEND_ASYNC_EVENT_REF_FIELDS
	zend_object std;
} async_future_obj_t;

typedef enum { CHAIN_MAP, CHAIN_CATCH, CHAIN_FINALLY } async_chain_kind;

static const char *const chain_names[] = { "map()", "catch()", "finally()" };

/* A map/catch/finally link: subscribed to the parent until it settles. */
typedef struct {
	zend_async_event_callback_t base;
	async_chain_kind kind;
	zend_fcall_t *fcall;
	async_future_t *child; /* one reference */
} async_future_chain_t;

/* A link whose callable runs: the "done" callback of the coroutine that runs it. */
typedef struct {
	zend_async_event_callback_t base;
	async_chain_kind kind;
	zend_fcall_t *fcall;
	async_future_t *child;  /* one reference */
	async_future_t *parent; /* one reference: its outcome is the callable's input */
} async_future_task_t;

#define FUTURE_FROM_STD(o)   ((async_future_t *) ((char *) (o) - XtOffsetOf(async_future_t, std)))
#define FUTURE_OBJ(o)        ((async_future_obj_t *) ((char *) (o) - XtOffsetOf(async_future_obj_t, std)))
#define FUTURE_EV(f)         (&(f)->future.event)
#define FUTURE_DONE(f)       ZEND_ASYNC_EVENT_IS_CLOSED(FUTURE_EV(f))
#define FUTURE_HAS(f, flag)  ZEND_ASYNC_EVENT_HAS(FUTURE_EV(f), flag)

static void future_chain_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception);

/* ---------------------------------------------------------------------------------------------
 * Locations
 * ------------------------------------------------------------------------------------------- */

/* The innermost PHP frame, or none (e.g. inside a chain coroutine or at shutdown). */
static void future_record_site(zend_string **file, uint32_t *line)
{
	zend_string *filename = zend_get_executed_filename_ex();
	if (*file) {
		zend_string_release(*file);
	}
	*file = filename ? zend_string_copy(filename) : NULL;
	*line = filename ? zend_get_executed_lineno() : 0;
}


/* ---------------------------------------------------------------------------------------------
 * Settling
 * ------------------------------------------------------------------------------------------- */

/* Stores the outcome (copying the value / adding a ref to the error) and notifies subscribers.
 * The completion site is the current PHP line; without one (a chain coroutine, C code in the
 * scheduler) the creation site stands in, so a location is always reported. */
static void future_settle(async_future_t *f, zval *value, zend_object *error)
{
	zend_future_t *fu = &f->future;
	ZEND_ASSERT(!FUTURE_DONE(f));
	future_record_site(&fu->completed_filename, &fu->completed_lineno);
	if (fu->completed_filename == NULL && fu->filename != NULL) {
		fu->completed_filename = zend_string_copy(fu->filename);
		fu->completed_lineno = fu->lineno;
	}
	if (error != NULL) {
		GC_ADDREF(error);
		fu->exception = error;
	} else if (value != NULL) {
		ZVAL_COPY_DEREF(&fu->result, value);
	}
	ZEND_ASYNC_CALLBACKS_NOTIFY_AND_CLOSE(&fu->event, &fu->result, fu->exception);
}

/* A chain's child may have been cancelled by its reader while its link was still working. */
static void future_settle_child(async_future_t *child, zval *value, zend_object *error)
{
	if (!FUTURE_DONE(child)) {
		future_settle(child, value, error);
	}
}

/* Pass-through links settle their child from the parent's outcome. Done one at a time from a
 * queue, not recursively: an error travelling down a chain of a thousand map() calls would
 * otherwise nest a thousand notifications on the (small) coroutine C stack. */
typedef struct _async_passthrough_s {
	async_future_t *child;  /* one reference */
	async_future_t *parent; /* one reference */
	struct _async_passthrough_s *next;
} async_passthrough_t;

/* The queue lives in ASYNC_G(passthrough_*): only non-empty while draining. */

static void future_passthrough_drain(void)
{
	async_passthrough_t *p;
	while ((p = ASYNC_G(passthrough_head)) != NULL) {
		ASYNC_G(passthrough_head) = p->next;
		if (ASYNC_G(passthrough_head) == NULL) {
			ASYNC_G(passthrough_tail) = NULL;
		}
		future_settle_child(p->child, &p->parent->future.result, p->parent->future.exception);
		OBJ_RELEASE(&p->parent->std); /* a dying child may warn, and a user error handler run */
		OBJ_RELEASE(&p->child->std);
		efree(p);
	}
}

static void future_passthrough(async_future_t *child, async_future_t *parent)
{
	async_passthrough_t *p = emalloc(sizeof(*p));
	p->child = child;
	p->parent = parent;
	GC_ADDREF(&parent->std);
	p->next = NULL;
	if (ASYNC_G(passthrough_tail)) {
		ASYNC_G(passthrough_tail)->next = p;
	} else {
		ASYNC_G(passthrough_head) = p;
	}
	ASYNC_G(passthrough_tail) = p;
	if (ASYNC_G(passthrough_draining)) {
		return;
	}
	ASYNC_G(passthrough_draining) = true;
	zend_try {
		future_passthrough_drain();
	} zend_catch {
		/* A fatal error in an error handler: the request is over, the next one starts clean. */
		ASYNC_G(passthrough_head) = ASYNC_G(passthrough_tail) = NULL;
		ASYNC_G(passthrough_draining) = false;
		zend_bailout();
	} zend_end_try();
	ASYNC_G(passthrough_draining) = false;
}

/* ---------------------------------------------------------------------------------------------
 * Chains: map / catch / finally
 * ------------------------------------------------------------------------------------------- */

static bool is_exit(zend_object *ex)
{
	return zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex);
}

/* Runs the link's callable and settles the child: a throw rejects it; finally() passes the
 * parent's outcome through unless it throws (then the parent's error becomes the previous). */
static void future_task_run(async_future_task_t *task)
{
	zend_future_t *in = &task->parent->future;
	zval arg, retval;
	uint32_t argc = 0;

	if (task->kind == CHAIN_MAP) {
		ZVAL_COPY(&arg, &in->result);
		argc = 1;
	} else if (task->kind == CHAIN_CATCH) {
		ZVAL_OBJ_COPY(&arg, in->exception);
		argc = 1;
	}
	ZVAL_UNDEF(&retval);
	zend_async_fcall_call(task->fcall, &retval, argc, &arg);
	if (argc) {
		zval_ptr_dtor(&arg);
	}

	zend_object *error = EG(exception);
	if (error != NULL && is_exit(error)) {
		zval_ptr_dtor(&retval);
		return; /* exit() unwinds the coroutine; the done callback cancels the child */
	}
	if (task->kind == CHAIN_FINALLY && in->exception != NULL && task->child->carried_from == NULL) {
		/* the parent's error goes on in the child (as its error, or the previous of the
		 * callable's): whoever handles the child's handles it */
		task->child->carried_from = &task->parent->std;
		GC_ADDREF(&task->parent->std);
	}
	if (error != NULL) {
		EG(exception) = NULL; /* the reference moves to us */
		if (task->kind == CHAIN_FINALLY && in->exception != NULL) {
			GC_ADDREF(in->exception);
			zend_exception_set_previous(error, in->exception);
		}
		future_settle_child(task->child, NULL, error);
		OBJ_RELEASE(error);
	} else if (task->kind == CHAIN_FINALLY) {
		future_settle_child(task->child, &in->result, in->exception);
	} else {
		future_settle_child(task->child, Z_TYPE(retval) == IS_UNDEF ? NULL : &retval, NULL);
	}
	zval_ptr_dtor(&retval);
}

static void future_task_clear(async_future_task_t *task)
{
	zend_fcall_release(task->fcall);
	task->fcall = NULL;
	if (task->parent) {
		async_future_t *parent = task->parent;
		task->parent = NULL;
		OBJ_RELEASE(&parent->std);
	}
	if (task->child) {
		async_future_t *child = task->child;
		task->child = NULL;
		OBJ_RELEASE(&child->std);
	}
}

/* The child's outcome when the callable never ran or did not finish: the coroutine's own
 * cancellation (graceful shutdown), else "Future has been cancelled". */
static void future_task_abandon(async_future_task_t *task, zend_object *exception)
{
	if (task->child != NULL && !FUTURE_DONE(task->child)) {
		zend_object *error = exception ? exception : async__new_exception(async__ce_async_cancellation, "Future has been cancelled");
		future_settle_child(task->child, NULL, error);
		if (exception == NULL) {
			OBJ_RELEASE(error);
		}
	}
	future_task_clear(task);
}

/* Runs in the coroutine: the warnings a dying child may give come from PHP context too. */
static void future_task_entry(void)
{
	async_future_task_t *task = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	future_task_run(task);
	if (!EG(exception)) {
		future_task_clear(task);
	}
}

static void future_task_done(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	future_task_abandon((async_future_task_t *) callback, exception);
}

/* Freed with the coroutine; one that never ran (request shutdown) still holds its references. */
static void future_task_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	future_task_clear((async_future_task_t *) callback);
	efree(callback);
}

/* The callable runs in a coroutine of its own: it may suspend, and this may be a reactor
 * callback. Spawning only queues, so it is safe from anywhere. */
static void future_task_spawn(async_future_task_t *task)
{
	zend_object *previous = EG(exception);
	zend_coroutine_t *co = ZEND_ASYNC_SPAWN();
	if (co == NULL) {
		/* e.g. async.max_contexts reached: the child carries the reason. If an exception was
		 * already pending the new one is chained to it: leave both where they are. */
		zend_object *error = previous == NULL ? EG(exception) : NULL;
		if (error != NULL) {
			EG(exception) = NULL; /* the reference moves to us */
		}
		future_task_abandon(task, error);
		if (error != NULL) {
			OBJ_RELEASE(error);
		}
		future_task_dispose(&task->base, NULL);
		return;
	}
	if (ZEND_COROUTINE_IS_FINISHED(co)) {
		/* Cancelled at once: spawned during a graceful shutdown. */
		future_task_abandon(task, co->exception);
		future_task_dispose(&task->base, NULL);
	} else {
		co->internal_entry = future_task_entry;
		co->extended_data = task;
		co->event.add_callback(&co->event, &task->base);
		ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&task->base);
	}
	ZEND_ASYNC_EVENT_RELEASE(&co->event); /* the handle; the coroutine keeps itself alive */
}

static void future_chain_clear(async_future_chain_t *chain)
{
	zend_fcall_release(chain->fcall);
	chain->fcall = NULL;
	if (chain->child) {
		async_future_t *child = chain->child;
		chain->child = NULL;
		OBJ_RELEASE(&child->std);
	}
}

/* The parent settled: run the callable, or pass the outcome straight to the child. A child
 * its reader already cancelled needs neither: nobody can see what the callable would produce. */
static void future_chain_fire(async_future_t *parent, async_future_chain_t *chain)
{
	bool failed = parent->future.exception != NULL;
	bool run = chain->kind == CHAIN_FINALLY || (chain->kind == CHAIN_MAP) != failed;

	if (FUTURE_DONE(chain->child)) {
		future_chain_clear(chain);
		return;
	}
	if (!run) {
		async_future_t *child = chain->child;
		chain->child = NULL;
		future_chain_clear(chain);
		future_passthrough(child, parent);
		return;
	}
	async_future_task_t *task = (async_future_task_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(future_task_done, sizeof(async_future_task_t));
	task->base.dispose = future_task_dispose;
	task->kind = chain->kind;
	task->fcall = chain->fcall;
	task->child = chain->child;
	task->parent = parent;
	GC_ADDREF(&parent->std);
	chain->fcall = NULL;
	chain->child = NULL;
	future_task_spawn(task);
}

static void future_chain_notify(zend_async_event_t *event, zend_async_event_callback_t *callback,
	void *result, zend_object *exception)
{
	/* A link fires once: leave the parent's subscribers (the notify loop keeps it alive). */
	zend_async_callbacks_remove(event, callback);
	future_chain_fire((async_future_t *) event, (async_future_chain_t *) callback);
}

static void future_chain_dispose(zend_async_event_callback_t *callback, zend_async_event_t *event)
{
	future_chain_clear((async_future_chain_t *) callback);
	efree(callback);
}


/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

/* Any subscriber (an await, a cancellation token, a chain) counts as using the future. */
static bool future_add_callback(zend_async_event_t *event, zend_async_event_callback_t *callback)
{
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	return zend_async_callbacks_push(event, callback);
}

static bool future_replay(zend_async_event_t *event, zend_async_event_callback_t *callback,
	zval *result, zend_object **exception)
{
	zend_future_t *fu = (zend_future_t *) event;
	ZEND_ASYNC_EVENT_SET_RESULT_USED(event);
	return zend_async_replay_stored(event, callback, &fu->result, fu->exception, result, exception);
}

static bool future_dispose(zend_async_event_t *event)
{
	OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
	return true;
}

static zend_string *future_info(zend_async_event_t *event)
{
	zend_future_t *fu = (zend_future_t *) event;
	zend_string *site = async__location_string(fu->filename, fu->lineno);
	zend_string *info = zend_strpprintf(0, "FutureState(%s) created at %s",
		ZEND_ASYNC_EVENT_IS_CLOSED(event) ? "completed" : "pending", ZSTR_VAL(site));
	zend_string_release(site);
	return info;
}

/* ---------------------------------------------------------------------------------------------
 * The shared future (an Async\FutureState object)
 * ------------------------------------------------------------------------------------------- */

static const async_event_methods_t future_event_methods = {
	.add_callback = future_add_callback,
	.replay = future_replay,
	.dispose = future_dispose,
	.info = future_info,
};

static zend_object *future_create_object_ex(zend_class_entry *ce, size_t extra_size)
{
	/* FutureState declares no properties, so the object ends at std.properties_table[0]:
	 * extra bytes placed there are never touched by the engine. */
	ZEND_ASSERT(ce->default_properties_count == 0);
	async_future_t *f = zend_object_alloc(sizeof(async_future_t) + extra_size, ce);
	memset(f, 0, XtOffsetOf(async_future_t, std));
	zend_object_std_init(&f->std, ce);
	f->std.handlers = &future_state_handlers;

	zend_async_event_t *ev = FUTURE_EV(f);
	async__event_init_in_object(ev, &future_event_methods, XtOffsetOf(async_future_t, std),
		ZEND_ASYNC_EVENT_F_ZVAL_RESULT);
	if (extra_size) {
		ev->extra_offset = XtOffsetOf(async_future_t, std) + XtOffsetOf(zend_object, properties_table);
		memset((char *) f + ev->extra_offset, 0, extra_size);
	}
	ZVAL_NULL(&f->future.result);
	future_record_site(&f->future.filename, &f->future.lineno);
	return &f->std;
}

static zend_object *future_create_object(zend_class_entry *ce)
{
	return future_create_object_ex(ce, 0);
}

static async_future_t *future_alloc(void)
{
	return FUTURE_FROM_STD(future_create_object(async__ce_future_state));
}

static zend_string *exception_message(zend_object *ex)
{
	zval rv;
	zval *message = zend_read_property_ex(zend_get_exception_base(ex), ex, ZSTR_KNOWN(ZEND_STR_MESSAGE), 1, &rv);
	return zval_get_string(message);
}

/* §8.2.5: a future that dies unused, or with an error nobody observed, is worth a warning. */
static void future_report_disposal(async_future_t *f)
{
	if (FUTURE_HAS(f, ZEND_FUTURE_F_IGNORED | ASYNC_FUTURE_F_REPORTED) || CG(unclean_shutdown)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ASYNC_FUTURE_F_REPORTED);
	zend_object *ex = f->future.exception;
	if (ex != NULL && !FUTURE_HAS(f, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED) && !async__is_cancellation(ex)) {
		zend_string *message = exception_message(ex);
		zend_string *created = async__location_string(f->future.filename, f->future.lineno);
		zend_string *completed = async__location_string(f->future.completed_filename, f->future.completed_lineno);
		zend_error(E_WARNING, "Unhandled exception in Future: %s; use catch() or ignore() to handle it "
			"(created at %s, completed at %s)", ZSTR_VAL(message), ZSTR_VAL(created), ZSTR_VAL(completed));
		zend_string_release(completed);
		zend_string_release(created);
		zend_string_release(message);
	} else if (!FUTURE_HAS(f, ZEND_ASYNC_EVENT_F_RESULT_USED)) {
		zend_string *site = async__location_string(f->future.filename, f->future.lineno);
		zend_error(E_WARNING, "Future created at %s was never used; call await(), map(), catch(), finally() "
			"or ignore() to suppress this warning", ZSTR_VAL(site));
		zend_string_release(site);
	}
}

/* A finally() child that carried its parent's error on: if the child's error was handled (awaited,
 * caught), so was the parent's, and the parent, disposed when the child lets it go, does not
 * warn. A child only ignore()d leaves the parent's warning. */
static void future_hand_back(async_future_t *f)
{
	if (f->carried_from == NULL) {
		return;
	}
	if (FUTURE_HAS(f, ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED) && !FUTURE_HAS(f, ZEND_FUTURE_F_IGNORED)) {
		async_future_t *parent = FUTURE_FROM_STD(f->carried_from);
		ZEND_ASYNC_EVENT_SET(FUTURE_EV(parent), ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED);
	}
}

static void future_state_dtor_obj(zend_object *object)
{
	zend_objects_destroy_object(object);
	future_hand_back(FUTURE_FROM_STD(object));
	future_report_disposal(FUTURE_FROM_STD(object));
}

static void future_state_free_obj(zend_object *object)
{
	async_future_t *f = FUTURE_FROM_STD(object);
	zend_async_callbacks_free(FUTURE_EV(f));
	zval_ptr_dtor(&f->future.result);
	ZVAL_NULL(&f->future.result);
	if (f->future.exception) {
		OBJ_RELEASE(f->future.exception);
		f->future.exception = NULL;
	}
	if (f->future.filename) {
		zend_string_release(f->future.filename);
	}
	if (f->future.completed_filename) {
		zend_string_release(f->future.completed_filename);
	}
	if (f->carried_from != NULL) {
		zend_object *parent = f->carried_from;
		f->carried_from = NULL;
		OBJ_RELEASE(parent); /* its own disposal check runs now */
	}
	zend_object_std_dtor(object);
}

static HashTable *future_state_get_gc(zend_object *object, zval **table, int *num)
{
	async_future_t *f = FUTURE_FROM_STD(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	zend_get_gc_buffer_add_zval(buf, &f->future.result);
	if (f->future.exception) {
		zend_get_gc_buffer_add_obj(buf, f->future.exception);
	}
	if (f->carried_from) {
		zend_get_gc_buffer_add_obj(buf, f->carried_from);
	}
	zend_async_callbacks_vector_t *v = &FUTURE_EV(f)->callbacks;
	for (uint32_t i = 0; i < v->length; i++) {
		if (v->data[i]->callback != future_chain_notify) {
			continue; /* a waker: its coroutine holds a reference the GC cannot see */
		}
		async_future_chain_t *chain = (async_future_chain_t *) v->data[i];
		if (chain->fcall) {
			zend_get_gc_buffer_add_zval(buf, &chain->fcall->fci.function_name);
		}
		if (chain->child) {
			zend_get_gc_buffer_add_obj(buf, &chain->child->std);
		}
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * The Async\Future object
 * ------------------------------------------------------------------------------------------- */

static zend_object *future_obj_create(zend_class_entry *ce)
{
	async_future_obj_t *obj = zend_object_alloc(sizeof(async_future_obj_t), ce);
	ZEND_ASYNC_EVENT_REF_PROLOG(obj, std);
	zend_object_std_init(&obj->std, ce);
	obj->std.handlers = &future_handlers;
	return &obj->std;
}

static void future_obj_bind(zend_object *object, async_future_t *f)
{
	GC_ADDREF(&f->std);
	FUTURE_OBJ(object)->event = FUTURE_EV(f);
}

static zend_object *future_obj_new(async_future_t *f)
{
	zend_object *object = future_obj_create(async__ce_future);
	future_obj_bind(object, f);
	return object;
}

static void future_obj_free(zend_object *object)
{
	async_future_obj_t *obj = FUTURE_OBJ(object);
	if (obj->event != NULL) {
		zend_async_event_t *event = obj->event;
		obj->event = NULL;
		async_future_t *f = (async_future_t *) event;
		async_future_reader_gone_fn gone = FUTURE_DONE(f) ? NULL : f->reader_gone;
		if (gone != NULL) {
			/* the hook's owner holds a reference (async__future_on_reader_gone()): f lives on */
			ZEND_ASSERT(GC_REFCOUNT(&f->std) > 1);
			OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
			if (GC_REFCOUNT(&f->std) == 1 && f->future.event.callbacks.length <= 1) {
				gone(&f->future);
			}
		} else {
			OBJ_RELEASE(ZEND_ASYNC_EVENT_TO_OBJECT(event));
		}
	}
	zend_object_std_dtor(object);
}

void async__future_on_reader_gone(zend_future_t *future, async_future_reader_gone_fn fn)
{
	((async_future_t *) future)->reader_gone = fn;
}

static HashTable *future_obj_get_gc(zend_object *object, zval **table, int *num)
{
	async_future_obj_t *obj = FUTURE_OBJ(object);
	zend_get_gc_buffer *buf = zend_get_gc_buffer_create();
	if (obj->event != NULL) {
		zend_get_gc_buffer_add_obj(buf, ZEND_ASYNC_EVENT_TO_OBJECT(obj->event));
	}
	zend_get_gc_buffer_use(buf, table, num);
	return NULL;
}

/* ---------------------------------------------------------------------------------------------
 * Shared method bodies
 * ------------------------------------------------------------------------------------------- */

/* Only a Future seen from inside its own failing constructor has no future behind it. */
static async_future_t *future_from_this(zval *this_ptr)
{
	zend_object *object = Z_OBJ_P(this_ptr);
	if (object->ce == async__ce_future_state) {
		return FUTURE_FROM_STD(object);
	}
	zend_async_event_t *event = FUTURE_OBJ(object)->event;
	if (UNEXPECTED(event == NULL)) {
		zend_throw_error(NULL, "Async\\Future is not initialized");
		return NULL;
	}
	return (async_future_t *) event;
}

#define THIS_FUTURE(f) \
	async_future_t *f = future_from_this(ZEND_THIS); \
	if (UNEXPECTED(f == NULL)) { RETURN_THROWS(); }

static void future_awaiting_info(async_future_t *f, zval *return_value)
{
	array_init(return_value);
	zend_async_callbacks_vector_t *v = &FUTURE_EV(f)->callbacks;
	for (uint32_t i = 0; i < v->length; i++) {
		zend_async_event_callback_t *cb = v->data[i];
		if (cb->callback == future_chain_notify) {
			add_next_index_string(return_value, chain_names[((async_future_chain_t *) cb)->kind]);
			continue;
		}
		if (cb->callback == zend_async_waker_callback_resolve) {
			/* The standard waker callback: a coroutine awaits this future. */
			zend_coroutine_t *co = ((zend_coroutine_event_callback_t *) cb)->coroutine;
			if (co != NULL && co->event.info != NULL) {
				add_next_index_str(return_value, co->event.info(&co->event));
				continue;
			}
		}
		add_next_index_string(return_value, "callback");
	}
}

/* The one-shot rule, for the writer: a second completion names the first one's site. A future
 * the reader cancelled swallows the writer's late completion: the producer did nothing wrong. */
static bool future_writer_can_settle(async_future_t *f)
{
	if (!FUTURE_DONE(f)) {
		return true;
	}
	if (!FUTURE_HAS(f, ASYNC_FUTURE_F_CANCELLED)) {
		zend_string *site = async__location_string(f->future.completed_filename, f->future.completed_lineno);
		async__throw(async__ce_async_exception, "FutureState is already completed at %s", ZSTR_VAL(site));
		zend_string_release(site);
	}
	return false;
}

static void future_cancel(async_future_t *f, zend_object *cancellation)
{
	/* Cancelling is a use, and a cancellation is never an unobserved error. */
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ZEND_ASYNC_EVENT_F_RESULT_USED | ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED);
	if (FUTURE_DONE(f)) {
		return;
	}
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ASYNC_FUTURE_F_CANCELLED);
	if (cancellation != NULL) {
		future_settle(f, NULL, cancellation);
		return;
	}
	zend_object *error = async__new_exception(async__ce_async_cancellation, "Future has been cancelled");
	future_settle(f, NULL, error);
	OBJ_RELEASE(error);
}

static void future_chain_method(INTERNAL_FUNCTION_PARAMETERS, async_chain_kind kind)
{
	zend_fcall_info fci;
	zend_fcall_info_cache fcc;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_FUNC(fci, fcc)
	ZEND_PARSE_PARAMETERS_END();
	THIS_FUTURE(parent);

	/* The parent's result is used from now on; its error counts as handled only through
	 * catch() (and map(), whose child carries it on): finally() observes, it does not handle. */
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(parent), ZEND_ASYNC_EVENT_F_RESULT_USED);
	if (kind != CHAIN_FINALLY) {
		ZEND_ASYNC_EVENT_SET(FUTURE_EV(parent), ZEND_ASYNC_EVENT_F_EXCEPTION_HANDLED);
	}

	async_future_t *child = future_alloc();
	async_future_chain_t *chain = (async_future_chain_t *) ZEND_ASYNC_EVENT_CALLBACK_EX(future_chain_notify, sizeof(async_future_chain_t));
	chain->base.dispose = future_chain_dispose;
	chain->kind = kind;
	chain->fcall = zend_async_fcall_new(&fci, &fcc);
	chain->child = child; /* the creation reference */
	zend_object *result = future_obj_new(child);

	if (FUTURE_DONE(parent)) {
		future_chain_fire(parent, chain);
	} else {
		parent->future.event.add_callback(FUTURE_EV(parent), &chain->base);
	}
	ZEND_ASYNC_EVENT_CALLBACK_RELEASE(&chain->base);
	RETURN_OBJ(result);
}

/* Future::await() is Async\await($this, $cancellation): one implementation of waiting. */
static void future_await(zend_object *future, zend_object *cancellation, zval *return_value)
{
	async__await(future, cancellation, return_value);
}

/* ---------------------------------------------------------------------------------------------
 * Async\FutureState
 * ------------------------------------------------------------------------------------------- */

ZEND_METHOD(Async_FutureState, __construct)
{
	ZEND_PARSE_PARAMETERS_NONE();
}

ZEND_METHOD(Async_FutureState, complete)
{
	zval *value;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();
	THIS_FUTURE(f);
	if (future_writer_can_settle(f)) {
		future_settle(f, value, NULL);
	}
}

ZEND_METHOD(Async_FutureState, error)
{
	zend_object *error;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(error, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();
	THIS_FUTURE(f);
	if (future_writer_can_settle(f)) {
		future_settle(f, NULL, error);
	}
}

ZEND_METHOD(Async_FutureState, isCompleted)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	RETURN_BOOL(FUTURE_DONE(f));
}

ZEND_METHOD(Async_FutureState, ignore)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ZEND_FUTURE_F_IGNORED);
}

ZEND_METHOD(Async_FutureState, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	future_awaiting_info(f, return_value);
}

/* The reader's view starts with the future itself: "Future(pending) created at F:L",
 * "Future(completed at F:L)", "Future(failed at F:L: Class: message)", "Future(cancelled at F:L)". */
static zend_string *future_state_line(async_future_t *f)
{
	zend_future_t *fu = &f->future;
	if (!FUTURE_DONE(f)) {
		zend_string *site = async__location_string(fu->filename, fu->lineno);
		zend_string *line = zend_strpprintf(0, "Future(pending) created at %s", ZSTR_VAL(site));
		zend_string_release(site);
		return line;
	}
	zend_string *site = async__location_string(fu->completed_filename, fu->completed_lineno);
	zend_string *line;
	if (FUTURE_HAS(f, ASYNC_FUTURE_F_CANCELLED)) {
		line = zend_strpprintf(0, "Future(cancelled at %s)", ZSTR_VAL(site));
	} else if (fu->exception != NULL) {
		zval message;
		ZVAL_STR(&message, zval_get_string(zend_read_property_ex(fu->exception->ce, fu->exception,
			ZSTR_KNOWN(ZEND_STR_MESSAGE), true, &message)));
		line = zend_strpprintf(0, "Future(failed at %s: %s: %s)", ZSTR_VAL(site),
			ZSTR_VAL(fu->exception->ce->name), Z_STRVAL(message));
		zval_ptr_dtor(&message);
	} else {
		line = zend_strpprintf(0, "Future(completed at %s)", ZSTR_VAL(site));
	}
	zend_string_release(site);
	return line;
}

/* Future::getAwaitingInfo(): the future's state, then what waits on it (as FutureState's). */
ZEND_METHOD(Async_Future, getAwaitingInfo)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	zval waiters;
	future_awaiting_info(f, &waiters);
	array_init_size(return_value, zend_hash_num_elements(Z_ARRVAL(waiters)) + 1);
	add_next_index_str(return_value, future_state_line(f));
	zval *entry;
	ZEND_HASH_FOREACH_VAL(Z_ARRVAL(waiters), entry) {
		Z_TRY_ADDREF_P(entry);
		add_next_index_zval(return_value, entry);
	} ZEND_HASH_FOREACH_END();
	zval_ptr_dtor(&waiters);
}

ZEND_METHOD(Async_FutureState, getCreatedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	async__return_file_and_line(return_value, f->future.filename, f->future.lineno);
}

ZEND_METHOD(Async_FutureState, getCreatedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	RETURN_STR(async__location_string(f->future.filename, f->future.lineno));
}

ZEND_METHOD(Async_FutureState, getCompletedFileAndLine)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	async__return_file_and_line(return_value, f->future.completed_filename, f->future.completed_lineno);
}

ZEND_METHOD(Async_FutureState, getCompletedLocation)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	RETURN_STR(async__location_string(f->future.completed_filename, f->future.completed_lineno));
}

/* ---------------------------------------------------------------------------------------------
 * Async\Future
 * ------------------------------------------------------------------------------------------- */

ZEND_METHOD(Async_Future, completed)
{
	zval *value = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_ZVAL(value)
	ZEND_PARSE_PARAMETERS_END();
	async_future_t *f = future_alloc();
	future_settle(f, value, NULL);
	RETVAL_OBJ(future_obj_new(f));
	OBJ_RELEASE(&f->std);
}

ZEND_METHOD(Async_Future, failed)
{
	zend_object *error;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(error, zend_ce_throwable)
	ZEND_PARSE_PARAMETERS_END();
	async_future_t *f = future_alloc();
	future_settle(f, NULL, error);
	RETVAL_OBJ(future_obj_new(f));
	OBJ_RELEASE(&f->std);
}

ZEND_METHOD(Async_Future, __construct)
{
	zend_object *state;
	ZEND_PARSE_PARAMETERS_START(1, 1)
		Z_PARAM_OBJ_OF_CLASS(state, async__ce_future_state)
	ZEND_PARSE_PARAMETERS_END();
	if (FUTURE_OBJ(Z_OBJ_P(ZEND_THIS))->event != NULL) {
		zend_throw_error(NULL, "Async\\Future is already initialized");
		RETURN_THROWS();
	}
	future_obj_bind(Z_OBJ_P(ZEND_THIS), FUTURE_FROM_STD(state));
}

ZEND_METHOD(Async_Future, isCancelled)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	RETURN_BOOL(async__future_is_cancelled(&f->future));
}

ZEND_METHOD(Async_Future, cancel)
{
	zend_object *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_async_cancellation)
	ZEND_PARSE_PARAMETERS_END();
	THIS_FUTURE(f);
	future_cancel(f, cancellation);
}

ZEND_METHOD(Async_Future, ignore)
{
	ZEND_PARSE_PARAMETERS_NONE();
	THIS_FUTURE(f);
	ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ZEND_FUTURE_F_IGNORED);
	RETURN_OBJ_COPY(Z_OBJ_P(ZEND_THIS));
}

ZEND_METHOD(Async_Future, map)
{
	future_chain_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, CHAIN_MAP);
}

ZEND_METHOD(Async_Future, catch)
{
	future_chain_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, CHAIN_CATCH);
}

ZEND_METHOD(Async_Future, finally)
{
	future_chain_method(INTERNAL_FUNCTION_PARAM_PASSTHRU, CHAIN_FINALLY);
}

ZEND_METHOD(Async_Future, await)
{
	zend_object *cancellation = NULL;
	ZEND_PARSE_PARAMETERS_START(0, 1)
		Z_PARAM_OPTIONAL
		Z_PARAM_OBJ_OF_CLASS_OR_NULL(cancellation, async__ce_completable)
	ZEND_PARSE_PARAMETERS_END();
	THIS_FUTURE(f);
	(void) f;
	future_await(Z_OBJ_P(ZEND_THIS), cancellation, return_value);
}

/* ---------------------------------------------------------------------------------------------
 * The C API
 * ------------------------------------------------------------------------------------------- */

zend_future_t *async__future_new(void)
{
	return &future_alloc()->future;
}

bool async__future_resolve(zend_future_t *future, zval *value)
{
	if (ZEND_ASYNC_EVENT_IS_CLOSED(&future->event)) {
		return false;
	}
	future_settle((async_future_t *) future, value, NULL);
	return true;
}

bool async__future_reject(zend_future_t *future, zend_object *error)
{
	if (ZEND_ASYNC_EVENT_IS_CLOSED(&future->event)) {
		return false;
	}
	future_settle((async_future_t *) future, NULL, error);
	return true;
}

zend_object *async__future_new_object(zend_future_t *future)
{
	return future_obj_new((async_future_t *) future);
}

bool async__future_is_cancelled(zend_future_t *future)
{
	return ZEND_ASYNC_EVENT_IS_CLOSED(&future->event) && future->exception != NULL
		&& instanceof_function(future->exception->ce, async__ce_async_cancellation);
}

/* ZEND_ASYNC_NEW_FUTURE: extra_size zeroed bytes at event.extra_offset. */
static zend_future_t *future_api_new(bool thread_safe, size_t extra_size)
{
	async_future_t *f = FUTURE_FROM_STD(future_create_object_ex(async__ce_future_state, extra_size));
	if (thread_safe) {
		ZEND_ASYNC_EVENT_SET(FUTURE_EV(f), ZEND_FUTURE_F_THREAD_SAFE);
	}
	return &f->future;
}

/* ---------------------------------------------------------------------------------------------
 * Registration
 * ------------------------------------------------------------------------------------------- */

zend_result async__future_minit(void)
{
	async__ce_future_state = register_class_Async_FutureState();
	async__ce_future_state->create_object = future_create_object;
	async__ce_future = register_class_Async_Future(async__ce_completable);
	async__ce_future->create_object = future_obj_create;

	async__object_handlers_init(&future_state_handlers, XtOffsetOf(async_future_t, std), future_state_dtor_obj, future_state_free_obj, future_state_get_gc);

	async__object_handlers_init(&future_handlers, XtOffsetOf(async_future_obj_t, std), NULL, future_obj_free, future_obj_get_gc);

	zend_async_scheduler_api_t api = { .new_future = future_api_new };
	if (!zend_async_scheduler_register(PHP_ASYNC_NAME, false, &api)) {
		return FAILURE; /* another implementation of the scheduler's table is registered */
	}
	async__class_register(ZEND_ASYNC_CLASS_FUTURE, async__ce_future);
	return SUCCESS;
}
