/*
 * core/stack_arena.c — C stacks for coroutines, carved from large memory maps (see core/core.h).
 *
 * A chunk is one anonymous mapping (MAP_NORESERVE: only touched pages cost memory) of a guard
 * page and CHUNK_STACKS stacks side by side; stacks are carved in address order and come back to
 * a LIFO free list, so a released stack is reused warm and without a system call.
 *
 * Overflow. A stack grows down from its top; the first bytes an overflow of stack k writes are the
 * top bytes of stack k-1, which each stack keeps free (RED_ZONE). When stack k has no guard page of
 * its own, that red zone is its canary zone: checked every time the coroutine on stack k switches
 * out and when it ends, before anything else runs, a broken canary ends the process (the stack
 * below may hold another coroutine's frames, which must never run again). It is a zone of words,
 * not one: the frames an overflow lays there may leave a word unwritten (a padding slot; seen on a
 * debug build), hardly all of them. Keeping it in the page below instead of at the stack's own
 * bottom costs no page: that page is the top of a stack in use (or carved earlier). Stack 0 of a
 * chunk overflows into the chunk's guard page; as long as the map budget allows (a quarter of
 * vm.max_map_count), a stack also gets a guard page of its own at its bottom, and then needs no
 * canary.
 * A fault in any guard is caught by a SIGSEGV handler on an alternate stack, which names the
 * overflow and ends the process; a fault anywhere else goes to the handler that was there before.
 */
#include "core/core.h"
#include <sys/mman.h>
#include <signal.h>
#include <unistd.h>
#include <sys/syscall.h>
#ifdef __SANITIZE_ADDRESS__
# include <sanitizer/asan_interface.h>
#endif

#define CHUNK_STACKS 256
#define RED_ZONE 64

/* per-process: the arena (chunks are mapped once and kept for the process) */
static struct {
	char **chunks;            /* chunk base addresses (the guard page first) */
	uint32_t chunk_count, chunk_capacity;
	uint32_t carved_in_last;  /* stacks carved from the last chunk */
	size_t page;
	uint32_t *free;           /* LIFO of released stack numbers (chunk * CHUNK_STACKS + index) */
	uint32_t free_count, free_capacity;
	uint8_t *guarded;         /* per stack number: it has a guard page */
	uint32_t in_use, guards, guard_budget;
	bool handler_installed;
	struct sigaction previous_segv;
	void *alt_stack;
} arena;
/* per-process: the size of every stack slot, one per process (0 until the first acquire); read
 * inline by async__stack_arena_fits() */
size_t async__stack_arena_slot;

static size_t chunk_bytes(void)
{
	return arena.page + (size_t) CHUNK_STACKS * async__stack_arena_slot;
}

/* ---------------------------------------------------------------------------------------------
 * Overflow: the fatal error
 * ------------------------------------------------------------------------------------------- */

static void write_all(const char *text)
{
	size_t len = strlen(text);
	while (len > 0) {
		ssize_t n = write(STDERR_FILENO, text, len);
		if (n <= 0) {
			return;
		}
		text += n;
		len -= (size_t) n;
	}
}

/* Async-signal-safe: a fixed message on stderr, then the process ends. */
static ZEND_NORETURN void overflow_exit(const char *who, const char *how)
{
	write_all("PHP Fatal error:  C stack overflow in ");
	write_all(who);
	write_all(" (");
	write_all(how);
	write_all("): it needed more than its stack (fiber.stack_size); the process stops, since the memory "
		"next to that stack may hold another coroutine's frames\n");
	_exit(255);
}

ZEND_NORETURN void async__stack_overflowed(const char *who)
{
	overflow_exit(who, "its canary was overwritten");
}

static bool in_arena(uintptr_t addr)
{
	size_t bytes = chunk_bytes();
	for (uint32_t i = 0; i < arena.chunk_count; i++) {
		uintptr_t base = (uintptr_t) arena.chunks[i];
		if (addr >= base && addr < base + bytes) {
			return true;
		}
	}
	return false;
}

/* Not a fault of ours: the previous disposition takes it. A fault (si_code > 0) happens again
 * when the handler returns and meets that disposition; a SIGSEGV sent by kill(), sigqueue() or
 * raise() (si_code <= 0) would not come again and would be lost, the process going on: it is sent
 * again, to this thread with its own siginfo, and arrives once the handler returns (SIGSEGV is
 * blocked while it runs). */
static void segv_handler(int signo, siginfo_t *info, void *context)
{
	bool fault = info != NULL && info->si_code > 0;
	if (fault && in_arena((uintptr_t) info->si_addr)) {
		overflow_exit("a coroutine", "it ran into a guard page");
	}
	sigaction(signo, &arena.previous_segv, NULL);
	arena.handler_installed = false;
	if (!fault) {
#if defined(SYS_rt_tgsigqueueinfo) && defined(SYS_gettid)
		if (info == NULL
			|| syscall(SYS_rt_tgsigqueueinfo, (long) getpid(), (long) syscall(SYS_gettid), (long) signo, info) != 0) {
			raise(signo);
		}
#else
		raise(signo);
#endif
	}
	(void) context;
}

void async__stack_arena_after_fork(void)
{
	/* the child of pcntl_fork() starts with PHP's own disposition of SIGSEGV; a stack it carves
	 * from a new chunk installs the handler again */
	if (arena.handler_installed) {
		sigaction(SIGSEGV, &arena.previous_segv, NULL);
		arena.handler_installed = false;
	}
}

static void install_segv_handler(void)
{
	if (arena.handler_installed) {
		return;
	}
	if (arena.alt_stack == NULL) { /* made once: a handler installed again (after a fork) reuses it */
		stack_t alt;
		alt.ss_size = 64 * 1024;
		alt.ss_sp = malloc(alt.ss_size);
		alt.ss_flags = 0;
		if (alt.ss_sp == NULL || sigaltstack(&alt, NULL) != 0) {
			free(alt.ss_sp);
			return; /* guards still stop an overflow, as a plain crash */
		}
		arena.alt_stack = alt.ss_sp;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	arena.handler_installed = sigaction(SIGSEGV, &sa, &arena.previous_segv) == 0;
}

/* ---------------------------------------------------------------------------------------------
 * Chunks and stacks
 * ------------------------------------------------------------------------------------------- */

bool async__stack_arena_available(void)
{
#ifdef ZEND_FIBER_UCONTEXT
	return false;
#else
	return true;
#endif
}

/* Guard pages of their own for this many stacks: `configured` >= 0, or (-1) a quarter of
 * vm.max_map_count (each guard splits the chunk's map in two more). */
static uint32_t guard_budget(zend_long configured)
{
	if (configured >= 0) {
		return configured > UINT32_MAX ? UINT32_MAX : (uint32_t) configured;
	}
	long max_map_count = 65530;
	FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
	if (f != NULL) {
		if (fscanf(f, "%ld", &max_map_count) != 1) {
			max_map_count = 65530;
		}
		fclose(f);
	}
	return max_map_count > 4 ? (uint32_t) (max_map_count / 4) : 0;
}

static bool map_chunk(void)
{
	if (arena.chunk_count == arena.chunk_capacity) {
		uint32_t capacity = arena.chunk_capacity ? arena.chunk_capacity * 2 : 16;
		char **chunks = realloc(arena.chunks, capacity * sizeof(char *));
		uint8_t *guarded = realloc(arena.guarded, (size_t) capacity * CHUNK_STACKS);
		if (chunks != NULL) {
			arena.chunks = chunks;
		}
		if (guarded != NULL) {
			arena.guarded = guarded;
		}
		if (chunks == NULL || guarded == NULL) {
			return false;
		}
		arena.chunk_capacity = capacity;
	}
	void *base = mmap(NULL, chunk_bytes(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (base == MAP_FAILED) {
		return false;
	}
	if (mprotect(base, arena.page, PROT_NONE) != 0) {
		munmap(base, chunk_bytes());
		return false;
	}
	arena.chunks[arena.chunk_count++] = base;
	arena.carved_in_last = 0;
	install_segv_handler();
	return true;
}

static char *stack_bottom(uint32_t number)
{
	return arena.chunks[number / CHUNK_STACKS] + arena.page + (size_t) (number % CHUNK_STACKS) * async__stack_arena_slot;
}

static void stack_describe(async_stack_t *stack, uint32_t number)
{
	char *bottom = stack_bottom(number);
	stack->number = number;
	stack->guarded = arena.guarded[number] != 0;
	stack->base = bottom + (stack->guarded ? arena.page : 0);
	stack->size = async__stack_arena_slot - RED_ZONE - (stack->guarded ? arena.page : 0);
}

/* The canary zone of stack `number` is the red zone at the top of the stack below it. A stack
 * with a guard page of its own needs none (an overflow faults before it gets there), nor does the
 * first of a chunk (the chunk's guard is under it). */
static uint64_t *canary_of(uint32_t number)
{
	ZEND_ASSERT(ASYNC_STACK_CANARY_WORDS * sizeof(uint64_t) <= RED_ZONE && "the zone is in the red zone");
	if (number % CHUNK_STACKS == 0 || arena.guarded[number]) {
		return NULL;
	}
	return (uint64_t *) (stack_bottom(number) - ASYNC_STACK_CANARY_WORDS * sizeof(uint64_t));
}

static bool carve(uint32_t *number)
{
	if (arena.chunk_count == 0 || arena.carved_in_last == CHUNK_STACKS) {
		if (!map_chunk()) {
			return false;
		}
	}
	*number = (arena.chunk_count - 1) * CHUNK_STACKS + arena.carved_in_last++;
	arena.guarded[*number] = 0;
	if (arena.guards < arena.guard_budget && mprotect(stack_bottom(*number), arena.page, PROT_NONE) == 0) {
		arena.guarded[*number] = 1;
		arena.guards++;
	}
	return true;
}

bool async__stack_acquire(async_stack_t *stack, size_t size, zend_long guards)
{
	if (arena.page == 0) {
		arena.page = (size_t) sysconf(_SC_PAGESIZE);
		async__stack_arena_slot = ZEND_MM_ALIGNED_SIZE_EX(size < 16 * arena.page ? 16 * arena.page : size, arena.page);
		arena.guard_budget = guard_budget(guards);
	}
	uint32_t number;
	if (arena.free_count > 0) {
		number = arena.free[--arena.free_count];
	} else if (!carve(&number)) {
		return false;
	}
	arena.in_use++;
	stack_describe(stack, number);
#ifdef __SANITIZE_ADDRESS__
	/* A released stack may still carry the redzones of frames that were never unwound (a worker
	 * parked at request end, a body ended by a fatal error): a munmap would have cleared them. */
	__asan_unpoison_memory_region(stack->base, stack->size);
#endif
	stack->canary = canary_of(number);
	if (stack->canary != NULL) {
		/* (written at every acquire: after a trim the page below may have been given back) */
		for (int i = 0; i < ASYNC_STACK_CANARY_WORDS; i++) {
			stack->canary[i] = ASYNC_STACK_CANARY;
		}
	}
	return true;
}

void async__stack_release(async_stack_t *stack)
{
	if (arena.free_count == arena.free_capacity) {
		uint32_t capacity = arena.free_capacity ? arena.free_capacity * 2 : 1024;
		uint32_t *list = realloc(arena.free, capacity * sizeof(uint32_t));
		if (list == NULL) {
			arena.in_use--;
			return; /* the stack is lost to the process, not reused */
		}
		arena.free = list;
		arena.free_capacity = capacity;
	}
	arena.free[arena.free_count++] = stack->number;
	arena.in_use--;
}

void async__stack_arena_rshutdown(void)
{
	if (arena.in_use > 0 || arena.chunk_count == 0) {
		return;
	}
	/* nothing runs on any stack: their pages go back (a canary is written again at acquire) */
	for (uint32_t i = 0; i < arena.chunk_count; i++) {
		madvise(arena.chunks[i] + arena.page, chunk_bytes() - arena.page, MADV_DONTNEED);
	}
}

void async__stack_arena_mshutdown(void)
{
	for (uint32_t i = 0; i < arena.chunk_count; i++) {
		munmap(arena.chunks[i], chunk_bytes());
	}
	if (arena.handler_installed) {
		sigaction(SIGSEGV, &arena.previous_segv, NULL);
	}
	if (arena.alt_stack != NULL) {
		stack_t off = { .ss_flags = SS_DISABLE };
		sigaltstack(&off, NULL);
	}
	free(arena.chunks);
	free(arena.guarded);
	free(arena.free);
	free(arena.alt_stack);
	memset(&arena, 0, sizeof(arena));
	async__stack_arena_slot = 0;
}
