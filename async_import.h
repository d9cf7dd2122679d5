/*
 * async_import.h — redirecting what one loaded library imports from another (installed as
 * <ext/async/async_import.h> for other extensions).
 *
 * Some extensions block inside a C library they call: ext/curl in curl_easy_perform(), a
 * database client in its own poll(). Their PHP-facing code does not need to change for the wait
 * to suspend only a coroutine — only the one call that blocks. A shared object calls the
 * functions it imports through its global offset table (GOT): one pointer per imported function,
 * filled by the dynamic linker. Redirecting an import rewrites that pointer in ONE object (the
 * one holding `anchor`), so its calls to `symbol` reach `replacement`, and hands back what the
 * pointer held, the real function, to call from the replacement. Every other object, and
 * dlsym(), still gets the real function.
 *
 * How ext-async uses it: ext/curl's imports of curl_easy_perform(), curl_multi_wait() and a few
 * more (hooks/curl.c); another extension does the same with its own table, at MINIT.
 *
 * Limits (checked where they can be; async_import_redirect() then patches nothing):
 * - ELF objects on x86-64, AArch64 and i386 (Linux, the BSDs): the import must go through the
 *   GOT, as every call to another object does (PLT or -fno-plt); calls inside one object
 *   (hidden or -Bsymbolic functions) and addresses taken with dlsym() are not redirected;
 * - a library linked statically into the object has no import to redirect;
 * - redirect at MINIT and restore at MSHUTDOWN, while no other thread runs the object's code
 *   (an object unloaded before the restore is skipped: nothing of it is left to put back);
 *   the GOT page's protection is lifted only for the write (RELRO pages are put back read-only);
 * - the replacement must have the imported function's exact C type, and must call `original`
 *   for everything it does not take over (outside a coroutine: always).
 */
#ifndef ASYNC_IMPORT_H
#define ASYNC_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include "zend_portability.h"

BEGIN_EXTERN_C()

#define ASYNC_IMPORT_MAX_SLOTS 4

typedef struct {
	const char *symbol;    /* the imported function's name, without a version ("curl_easy_perform") */
	void *replacement;     /* what the object calls instead */
	/* filled by async_import_redirect() */
	void *original;        /* the function the object called: call it from the replacement */
	void **slots[ASYNC_IMPORT_MAX_SLOTS]; /* the GOT entries rewritten (a PLT and a direct one) */
	unsigned int slot_count;
} async_import_t;

/* Redirects the imports `imports[0..count)` of the object that contains the address `anchor`
 * (any function or data of it, e.g. a handler of the extension in PHP's function table).
 * Returns how many of them were redirected; an import the object does not have is left with
 * slot_count 0 and original NULL. */
ZEND_API size_t async_import_redirect(const void *anchor, async_import_t *imports, size_t count);

/* Puts back what async_import_redirect() replaced, where the entry still holds our
 * replacement. Safe on entries that were never redirected. */
ZEND_API void async_import_restore(async_import_t *imports, size_t count);

END_EXTERN_C()

#endif /* ASYNC_IMPORT_H */
