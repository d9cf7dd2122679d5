/*
 * core/coroutine_finally.c — finally handlers (Coroutine::finally(), Scope::finally()) run after their
 * owner completed, in a helper coroutine of their own: they may suspend, and the owner's waiters
 * (await(), dispose()) do not wait for them.
 *
 * Each handler is called with the owner's object, in registration order; one that throws does
 * not stop the next. Their errors — one as itself, several as a CompositeException in order —
 * never replace the owner's own result or error: the helper throws them from its body, so they
 * take the exception path of the scope the helper runs in (the owner's), or the owner hands them
 * to a deliver callback of its own (a disposed scope starts the path at itself).
 *
 * The handlers are what a shutdown waits for, so the helper is not cancelled by anything short
 * of the engine destroying it (coroutine.c: async__coroutine_cancel()); it is spawned into its
 * scope even when that scope is closed or cancelled (scheduler.c: async__spawn_helper()). Where
 * nothing can run a coroutine any more (a destructor after the last drain) the handlers run
 * inline, with the same error rules.
 */
#include "php_async.h"
#include "core/core.h"
#include "zend_exceptions.h"

typedef struct {
	zend_array *handlers;
	zend_object *subject;              /* each handler gets it */
	const char *composite_message;     /* several errors: a CompositeException with this message */
	async_finally_deliver_fn deliver;  /* NULL: thrown from the helper's body */
} finally_job_t;

static void finally_job_free(finally_job_t *job)
{
	zend_array_release(job->handlers);
	OBJ_RELEASE(job->subject);
	efree(job);
}

/* Calls every handler; returns their error (one as itself, several as a CompositeException), or
 * NULL. An exit() or an engine unwind stops the calls and stays in EG(exception). */
static zend_object *finally_call_all(finally_job_t *job)
{
	zend_array *errors = NULL;
	zval arg, *handler;
	ZVAL_OBJ(&arg, job->subject);
	ZEND_HASH_FOREACH_VAL(job->handlers, handler) {
		zval retval;
		ZVAL_UNDEF(&retval);
		call_user_function(NULL, NULL, handler, &retval, 1, &arg);
		zval_ptr_dtor(&retval);
		zend_object *ex = EG(exception);
		if (ex == NULL) {
			continue;
		}
		if (zend_is_unwind_exit(ex) || zend_is_graceful_exit(ex)) {
			break;
		}
		if (errors == NULL) {
			errors = zend_new_array(1);
		}
		zval zex;
		ZVAL_OBJ_COPY(&zex, ex);
		zend_clear_exception();
		zend_hash_next_index_insert(errors, &zex);
	} ZEND_HASH_FOREACH_END();
	if (errors == NULL) {
		return NULL;
	}
	zend_object *error;
	if (zend_hash_num_elements(errors) == 1) {
		error = Z_OBJ_P(zend_hash_index_find(errors, 0));
		GC_ADDREF(error);
	} else {
		error = async__composite_new(job->composite_message, errors);
	}
	zend_array_release(errors);
	return error;
}

static void finally_run(finally_job_t *job)
{
	zend_object *error = finally_call_all(job);
	if (error == NULL) {
		return;
	}
	if (job->deliver != NULL) {
		job->deliver(job->subject, error); /* takes the reference */
	} else if (EG(exception) == NULL) {
		zend_throw_exception_internal(error);
	} else {
		OBJ_RELEASE(error); /* an exit() is on its way: it wins */
	}
}

static void finally_entry(void)
{
	finally_job_t *job = ZEND_ASYNC_CURRENT_COROUTINE->extended_data;
	ZEND_ASYNC_CURRENT_COROUTINE->extended_data = NULL;
	finally_run(job);
	finally_job_free(job);
}

/* The helper was destroyed before its entry ran (request end): the job goes with it. */
static void finally_extended_dispose(zend_coroutine_t *coroutine)
{
	if (coroutine->extended_data != NULL) {
		finally_job_free(coroutine->extended_data);
		coroutine->extended_data = NULL;
	}
}

void async__finally_run_later(zend_async_scope_t *scope, zend_array *handlers, zend_object *subject,
	const char *composite_message, async_finally_deliver_fn deliver, bool first)
{
	ZEND_ASSERT(handlers != NULL && zend_hash_num_elements(handlers) > 0);
	finally_job_t *job = emalloc(sizeof(*job));
	job->handlers = handlers;
	job->subject = subject;
	GC_ADDREF(subject);
	job->composite_message = composite_message;
	job->deliver = deliver;

	zend_coroutine_t *helper = async__spawn_helper(scope, first);
	if (helper == NULL) {
		/* nothing can run a coroutine any more: now, here */
		if (EG(exception) != NULL && !zend_is_unwind_exit(EG(exception)) && !zend_is_graceful_exit(EG(exception))) {
			zend_clear_exception();
		}
		finally_run(job);
		finally_job_free(job);
		return;
	}
	ASYNC_CO_FROM_CORO(helper)->finally_helper = true;
	helper->internal_entry = finally_entry;
	helper->extended_data = job;
	helper->extended_dispose = finally_extended_dispose;
	ZEND_ASYNC_EVENT_RELEASE(&helper->event);
}
