/* virtual_time.h — Async\Testing\virtual_time() (virtual_time.c). */
#ifndef ASYNC_VIRTUAL_TIME_H
#define ASYNC_VIRTUAL_TIME_H

void async_register_virtual_time_function(void);

#endif /* ASYNC_VIRTUAL_TIME_H */
