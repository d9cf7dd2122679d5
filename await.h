/* await.h — the await_* family (await.c): waiting for many awaitables at once. */
#ifndef ASYNC_AWAIT_H
#define ASYNC_AWAIT_H

void async_register_await(void);

#endif /* ASYNC_AWAIT_H */
