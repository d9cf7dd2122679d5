/*
 * reactor/work.c — the reactor's work event (zend_async_reactor_api.new_work_event): a C function
 * run on libuv's thread pool while the loop goes on, for the blocking system calls nothing can
 * poll (fsync(), ...).
 *
 * The job is queued when the event first starts (so the creator can fill the event's extra area
 * first: `run` may begin on a thread at once); later starts only count it as something the
 * program waits for. libuv owns the request from
 * submission until its after-callback, whatever happens to the event meanwhile, so the memory is
 * freed by whichever comes last: the final dispose or that callback. The callback only closes
 * the event and notifies (P12); a function a pool thread already runs finishes.
 */
#include "php_async.h"
#define ASYNC_REACTOR_UV /* the libuv side of the reactor's header */
#include "reactor/reactor.h"
#include "core/core.h"

typedef struct {
	zend_async_work_event_t work; /* first: the event */
	uv_work_t req;
	bool queued;     /* the job was handed to libuv (at the first start) */
	bool in_flight;  /* libuv owns the request until its after-callback ran */
	bool orphaned;   /* every reference was dropped while in flight: the callback frees */
	bool detached;   /* request shutdown: the callback delivers nothing */
	bool given_up;   /* work_abandon() ran */
	async_list_node_t link; /* in ASYNC_G(work_in_flight) while in flight */
} async_work_t;

#define WORK_FROM_EVENT(e) ((async_work_t *) (e))

static void work_free(async_work_t *w)
{
	zend_async_callbacks_free(&w->work.base);
	efree(w);
}

/* Nobody will take the result. A job with an abandon hook always runs (its hook makes it return
 * soon, and releases what it produces: a job cancelled before a thread took it could leave
 * something unreleased, e.g. a descriptor to close); any other is dropped if no thread has it
 * yet (uv_cancel() succeeds only then). */
static void work_abandon(async_work_t *w)
{
	if (w->given_up) {
		return;
	}
	w->given_up = true;
	if (w->work.abandon != NULL) {
		w->work.abandon(&w->work);
	} else {
		uv_cancel((uv_req_t *) &w->req);
	}
}

static void work_in_flight_end(async_work_t *w)
{
	ZEND_ASSERT(w->in_flight && "only libuv's callback ends a request");
	w->in_flight = false;
	async_list_remove(&ASYNC_G(work_in_flight), &w->link);
}

/* On a pool thread: nothing of PHP's. */
static void work_run(uv_work_t *req)
{
	async_work_t *w = req->data;
	w->work.run(&w->work);
}

static void work_after(uv_work_t *req, int status)
{
	async_work_t *w = req->data;
	work_in_flight_end(w);
	if (w->orphaned) {
		work_free(w);
		return;
	}
	if (w->detached) {
		return;
	}
	zend_async_event_t *event = &w->work.base;
	if (status == UV_ECANCELED) {
		w->work.result = -1;
		w->work.error = ECANCELED;
	}
	async__reactor_event_count_off(event);
	event->loop_ref_count = 0;
	ZEND_ASYNC_EVENT_SET_CLOSED(event);
	ZEND_ASYNC_CALLBACKS_NOTIFY(event, NULL, NULL);
	async__reactor_delivered(req->loop);
}

/* ---------------------------------------------------------------------------------------------
 * Event methods
 * ------------------------------------------------------------------------------------------- */

static bool work_queue(async_work_t *w)
{
	int rc = uv_queue_work(ASYNC_G(loop), &w->req, work_run, work_after);
	if (rc != 0) {
		async__throw(async__ce_async_exception, "Cannot queue work on the thread pool: %s", uv_strerror(rc));
		return false;
	}
	w->queued = true;
	w->in_flight = true;
	async_list_append(&ASYNC_G(work_in_flight), &w->link);
	return true;
}

/* The first start queues the job; every start counts it as something the program waits for. */
static bool work_start(zend_async_event_t *event)
{
	async_work_t *w = WORK_FROM_EVENT(event);
	if (ZEND_ASYNC_EVENT_IS_CLOSED(event)) {
		return true;
	}
	if (!w->queued && !work_queue(w)) {
		return false;
	}
	return async__reactor_counting_start(event);
}

static bool work_dispose(zend_async_event_t *event)
{
	async_work_t *w = WORK_FROM_EVENT(event);
	switch (async__reactor_request_release(event, w->in_flight)) {
		case ASYNC_REQUEST_HELD:
			break;
		case ASYNC_REQUEST_ORPHANED:
			w->orphaned = true;
			work_abandon(w);
			break;
		case ASYNC_REQUEST_FREE:
			work_free(w);
			break;
	}
	return true;
}

static zend_string *work_info(zend_async_event_t *event)
{
	return zend_string_init("Work(thread pool)", sizeof("Work(thread pool)") - 1, 0);
}

static const async_event_methods_t work_methods = {
	.start = work_start, .stop = async__reactor_counting_stop, .dispose = work_dispose, .info = work_info,
};

static zend_async_work_event_t *reactor_new_work_event(zend_async_work_fn run, void *arg, size_t extra_size)
{
	if (async__reactor_loop_or_throw() == NULL) {
		return NULL;
	}
	async_work_t *w = ecalloc(1, sizeof(async_work_t) + extra_size);
	zend_async_event_t *event = &w->work.base;
	async__event_init(event, &work_methods);
	event->extra_offset = (uint32_t) sizeof(async_work_t);
	w->work.run = run;
	w->work.arg = arg;
	w->req.data = w;
	return &w->work;
}

/* ---------------------------------------------------------------------------------------------
 * Module
 * ------------------------------------------------------------------------------------------- */

void async__reactor_work_rshutdown(void)
{
	for (async_list_node_t *n = ASYNC_G(work_in_flight).first; n != NULL; n = n->next) {
		async_work_t *w = ASYNC_LIST_ITEM(n, async_work_t, link);
		w->detached = true;
		work_abandon(w); /* the reactor's shutdown runs the loop until every job returned */
	}
}

zend_result async__reactor_work_minit(void)
{
	/* Only this slot: the reactor's other slots stay as libuv_reactor.c registered them. */
	zend_async_reactor_api_t api = { .new_work_event = reactor_new_work_event };
	/* false: another implementation of this ABI table is registered */
	return zend_async_reactor_register("libuv", false, &api) ? SUCCESS : FAILURE;
}
