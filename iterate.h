/* iterate.h — Async\iterate() (iterate.c). */
#ifndef ASYNC_ITERATE_H
#define ASYNC_ITERATE_H

void async_register_iterate_function(void);

#endif /* ASYNC_ITERATE_H */
