/* channel.h — Async\Channel for the rest of the runtime (spec §3.7, §8.7). */
#ifndef ASYNC_CHANNEL_H
#define ASYNC_CHANNEL_H

#include "php.h"
#include "zend_async_API.h"

/* The cases of Async\ChannelCloseReason, in declaration order. */
typedef enum {
	ASYNC_CHANNEL_EXPLICIT = 0,
	ASYNC_CHANNEL_DISPOSED,
	ASYNC_CHANNEL_NO_PRODUCERS,
	ASYNC_CHANNEL_NO_CONSUMERS,
	ASYNC_CHANNEL_DEADLOCK,
	ASYNC_CHANNEL_SCOPE_DISPOSED
} async_channel_close_reason;

extern zend_class_entry *async_ce_channel;
extern zend_class_entry *async_ce_channel_close_reason;
extern zend_class_entry *async_ce_channel_exception;

/* MINIT: the enum, the class, and the scheduler table's new_channel slot. */
void async_register_channel_class(void);

/* Closes with a reason (first reason wins). For the owner-scope binding (SCOPE_DISPOSED). */
void async_channel_close(zend_async_channel_t *channel, async_channel_close_reason reason);

/* A fresh ChannelException carrying `reason` (message and $reason property). */
zend_object *async_channel_exception(async_channel_close_reason reason);

#endif /* ASYNC_CHANNEL_H */
