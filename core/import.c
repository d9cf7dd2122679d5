/*
 * core/import.c — an object's imports redirected through its GOT (async_import.h).
 *
 * The dynamic section of the object holding the anchor gives its symbol table and its two
 * relocation tables: the PLT's (JUMP_SLOT: calls through a PLT stub) and the general one
 * (GLOB_DAT: calls compiled with -fno-plt, and function pointers taken). Every relocation of the
 * wanted symbol of those two kinds names a GOT entry, which holds the function's address once the
 * object is bound; that entry is what the redirect rewrites.
 */
#ifdef HAVE_CONFIG_H
# include "config.h"
#endif
#include "php.h"
#include "async_import.h"

#if defined(__ELF__) && (defined(__x86_64__) || defined(__aarch64__) || defined(__i386__)) && !defined(_WIN32)
# define ASYNC_IMPORT_SUPPORTED 1
#else
# define ASYNC_IMPORT_SUPPORTED 0
#endif

#if ASYNC_IMPORT_SUPPORTED

#ifndef _GNU_SOURCE
# define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <link.h>
#include <elf.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__)
# define IMPORT_JUMP_SLOT R_X86_64_JUMP_SLOT
# define IMPORT_GLOB_DAT  R_X86_64_GLOB_DAT
#elif defined(__aarch64__)
# define IMPORT_JUMP_SLOT R_AARCH64_JUMP_SLOT
# define IMPORT_GLOB_DAT  R_AARCH64_GLOB_DAT
#else
# define IMPORT_JUMP_SLOT R_386_JMP_SLOT
# define IMPORT_GLOB_DAT  R_386_GLOB_DAT
#endif

#if defined(__LP64__)
# define IMPORT_R_SYM(info)  ELF64_R_SYM(info)
# define IMPORT_R_TYPE(info) ELF64_R_TYPE(info)
#else
# define IMPORT_R_SYM(info)  ELF32_R_SYM(info)
# define IMPORT_R_TYPE(info) ELF32_R_TYPE(info)
#endif

/* What the walk of the loaded objects found for the anchor. */
typedef struct {
	const void *anchor;
	bool found;
	ElfW(Addr) base;               /* the load bias: an address in the file + base = in memory */
	const ElfW(Phdr) *phdr;
	ElfW(Half) phnum;
	const char *name;
} import_object_t;

static bool phdr_contains(const struct dl_phdr_info *info, uintptr_t address)
{
	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;
		if (ph->p_type == PT_LOAD && address >= start && address < start + ph->p_memsz) {
			return true;
		}
	}
	return false;
}

static int find_object(struct dl_phdr_info *info, size_t size, void *data)
{
	import_object_t *object = data;
	(void) size;
	if (!phdr_contains(info, (uintptr_t) object->anchor)) {
		return 0;
	}
	object->found = true;
	object->base = info->dlpi_addr;
	object->phdr = info->dlpi_phdr;
	object->phnum = info->dlpi_phnum;
	object->name = info->dlpi_name;
	return 1;
}

/* The dynamic section's tables. glibc rewrites most of their addresses to absolute ones when it
 * loads the object, musl and the BSDs leave them relative: an address below the load bias is a
 * relative one. */
typedef struct {
	const ElfW(Sym) *symtab;
	const char *strtab;
	const void *jmprel;
	size_t jmprel_size;
	bool jmprel_is_rela;
	const void *rel;
	size_t rel_size;
	bool rel_is_rela;
	uintptr_t relro_start, relro_end;
} import_tables_t;

static const void *dyn_address(const import_object_t *object, ElfW(Addr) value)
{
	return (const void *) (value < object->base ? object->base + value : value);
}

static bool read_tables(const import_object_t *object, import_tables_t *t)
{
	const ElfW(Dyn) *dyn = NULL;
	memset(t, 0, sizeof(*t));
	for (ElfW(Half) i = 0; i < object->phnum; i++) {
		const ElfW(Phdr) *ph = &object->phdr[i];
		if (ph->p_type == PT_DYNAMIC) {
			dyn = (const ElfW(Dyn) *) (object->base + ph->p_vaddr);
		} else if (ph->p_type == PT_GNU_RELRO) {
			t->relro_start = object->base + ph->p_vaddr;
			t->relro_end = t->relro_start + ph->p_memsz;
		}
	}
	if (dyn == NULL) {
		return false;
	}
	ElfW(Sxword) pltrel = 0;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
			case DT_SYMTAB: t->symtab = dyn_address(object, dyn->d_un.d_ptr); break;
			case DT_STRTAB: t->strtab = dyn_address(object, dyn->d_un.d_ptr); break;
			case DT_JMPREL: t->jmprel = dyn_address(object, dyn->d_un.d_ptr); break;
			case DT_PLTRELSZ: t->jmprel_size = dyn->d_un.d_val; break;
			case DT_PLTREL: pltrel = dyn->d_un.d_val; break;
#if defined(__LP64__)
			case DT_RELA: t->rel = dyn_address(object, dyn->d_un.d_ptr); t->rel_is_rela = true; break;
			case DT_RELASZ: t->rel_size = dyn->d_un.d_val; break;
#else
			case DT_REL: t->rel = dyn_address(object, dyn->d_un.d_ptr); break;
			case DT_RELSZ: t->rel_size = dyn->d_un.d_val; break;
#endif
		}
	}
	t->jmprel_is_rela = pltrel == DT_RELA;
	return t->symtab != NULL && t->strtab != NULL;
}

/* Calls visit() for each GOT entry the object binds to `symbol` through a table of relocations. */
static void each_slot(const import_object_t *object, const import_tables_t *t, const void *table, size_t size,
	bool is_rela, const char *symbol, void (*visit)(void **slot, void *arg), void *arg)
{
	size_t entry = is_rela ? sizeof(ElfW(Rela)) : sizeof(ElfW(Rel));
	for (size_t off = 0; table != NULL && off + entry <= size; off += entry) {
		/* Rel is Rela's first two fields: offset and info */
		const ElfW(Rel) *r = (const ElfW(Rel) *) ((const char *) table + off);
		unsigned long type = IMPORT_R_TYPE(r->r_info);
		if (type != IMPORT_JUMP_SLOT && type != IMPORT_GLOB_DAT) {
			continue;
		}
		const ElfW(Sym) *sym = &t->symtab[IMPORT_R_SYM(r->r_info)];
		if (sym->st_name != 0 && strcmp(t->strtab + sym->st_name, symbol) == 0) {
			visit((void **) (object->base + r->r_offset), arg);
		}
	}
}

static void collect_slot(void **slot, void *arg)
{
	async_import_t *import = arg;
	if (import->slot_count < ASYNC_IMPORT_MAX_SLOTS) {
		import->slots[import->slot_count++] = slot;
	}
}

/* Writes one GOT entry: its page is made writable for the write, and read-only again when it
 * lies in the RELRO range (the others were writable already). */
static bool write_slot(void **slot, void *value, uintptr_t relro_start, uintptr_t relro_end)
{
	long page_size = sysconf(_SC_PAGESIZE);
	uintptr_t page = (uintptr_t) slot & ~((uintptr_t) page_size - 1);
	bool relro = (uintptr_t) slot >= relro_start && (uintptr_t) slot < relro_end;
	if (mprotect((void *) page, (size_t) page_size, PROT_READ | PROT_WRITE) != 0) {
		return false;
	}
	__atomic_store_n(slot, value, __ATOMIC_RELEASE);
	if (relro) {
		mprotect((void *) page, (size_t) page_size, PROT_READ);
	}
	return true;
}

/* The function an unbound (lazy) entry would be bound to: the one the object's own lookup scope
 * finds. A bound entry already holds it. */
static void *bound_target(const import_object_t *object, void *held, const char *symbol)
{
	if (!phdr_contains(&(struct dl_phdr_info) { .dlpi_addr = object->base, .dlpi_phdr = object->phdr,
			.dlpi_phnum = object->phnum }, (uintptr_t) held)) {
		return held; /* outside the object: already the real function */
	}
	/* a PLT stub of the object itself: calling it would bind the entry over our replacement */
	void *handle = dlopen(object->name != NULL && object->name[0] ? object->name : NULL, RTLD_LAZY | RTLD_NOLOAD);
	void *target = handle != NULL ? dlsym(handle, symbol) : NULL;
	if (handle != NULL) {
		dlclose(handle);
	}
	return target;
}

ZEND_API size_t async_import_redirect(const void *anchor, async_import_t *imports, size_t count)
{
	import_object_t object = { .anchor = anchor };
	import_tables_t tables;
	for (size_t i = 0; i < count; i++) {
		imports[i].slot_count = 0;
		imports[i].original = NULL;
	}
	if (anchor == NULL || dl_iterate_phdr(find_object, &object) == 0 || !object.found
		|| !read_tables(&object, &tables)) {
		return 0;
	}
	size_t redirected = 0;
	for (size_t i = 0; i < count; i++) {
		async_import_t *import = &imports[i];
		each_slot(&object, &tables, tables.jmprel, tables.jmprel_size, tables.jmprel_is_rela, import->symbol,
			collect_slot, import);
		each_slot(&object, &tables, tables.rel, tables.rel_size, tables.rel_is_rela, import->symbol,
			collect_slot, import);
		if (import->slot_count == 0) {
			continue;
		}
		void *original = bound_target(&object, *import->slots[0], import->symbol);
		if (original == NULL) {
			import->slot_count = 0;
			continue;
		}
		import->original = original;
		unsigned int written = 0;
		for (unsigned int s = 0; s < import->slot_count; s++) {
			if (write_slot(import->slots[s], import->replacement, tables.relro_start, tables.relro_end)) {
				import->slots[written++] = import->slots[s];
			}
		}
		import->slot_count = written;
		redirected += written > 0;
	}
	return redirected;
}

ZEND_API void async_import_restore(async_import_t *imports, size_t count)
{
	for (size_t i = 0; i < count; i++) {
		async_import_t *import = &imports[i];
		for (unsigned int s = 0; s < import->slot_count; s++) {
			void **slot = import->slots[s];
			/* the object is found again: it may have been unloaded already (PHP unloads an
			 * extension loaded after ours before our MSHUTDOWN), and its RELRO range says
			 * whether the entry goes back read-only */
			import_object_t object = { .anchor = slot };
			import_tables_t tables = { 0 };
			if (dl_iterate_phdr(find_object, &object) == 0 || !object.found) {
				continue; /* gone with its object: nothing to put back */
			}
			if (*slot != import->replacement) {
				continue; /* someone redirected it after us: theirs stays */
			}
			read_tables(&object, &tables);
			write_slot(slot, import->original, tables.relro_start, tables.relro_end);
		}
		import->slot_count = 0;
	}
}

#else /* !ASYNC_IMPORT_SUPPORTED */

ZEND_API size_t async_import_redirect(const void *anchor, async_import_t *imports, size_t count)
{
	(void) anchor;
	for (size_t i = 0; i < count; i++) {
		imports[i].slot_count = 0;
		imports[i].original = NULL;
	}
	return 0;
}

ZEND_API void async_import_restore(async_import_t *imports, size_t count)
{
	(void) imports;
	(void) count;
}

#endif /* ASYNC_IMPORT_SUPPORTED */
