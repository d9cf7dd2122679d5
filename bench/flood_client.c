/*
 * bench/flood_client.c — the load of bench/flood.php: many keep-alive connections, each a closed
 * loop of requests (send one, wait for its whole response, send the next), in one epoll thread.
 *
 *   flood_client HOST PORT SOURCE_ADDRESS CONNECTIONS DURATION_MS [WARMUP_MS [PACE_MS]]
 *
 * 1. Opens CONNECTIONS connections from SOURCE_ADDRESS (its own range of ephemeral ports), at
 *    most 256 connecting at once; each sends one request and waits for its answer (a connection
 *    that was refused, reset or closed is retried, 5 times at most). Prints
 *    "connected HELD FAILED" and waits for a line on stdin.
 * 2. Every held connection then loops for WARMUP_MS + DURATION_MS: a request, its response, the
 *    next. The responses completed in the last DURATION_MS are counted (the first requests,
 *    sent all at once, and a JIT still compiling are the warm-up's). Prints
 *    "result requests=N errors=N held=N" (errors: connections lost during the run) and then
 *    "hist US:COUNT ..." (each counted response's latency, from its send to its last byte, in
 *    buckets of 10 µs up to 10 s), and exits.
 *    With PACE_MS, a connection sends its next request PACE_MS after the previous one was sent
 *    (at once if that is past), the first ones spread over PACE_MS: an offered rate of
 *    CONNECTIONS / PACE_MS instead of a closed loop.
 *
 * The requests are examples/http_server.php's keep-alive GETs; a response is complete when its
 * head and the Content-Length bytes after it have arrived. Built by bench/flood.php with cc.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTING 256
#define MAX_TRIES 5
#define BUCKET_US 10
#define BUCKETS 1000000 /* 10 s */

static const char request[] = "GET / HTTP/1.1\r\nHost: flood\r\n\r\n";

typedef struct {
	int fd;
	int tries;
	enum { IDLE, CONNECTING, SENT, HELD, GONE } state;
	size_t got;          /* bytes of the current response */
	size_t need;         /* its whole length, once the head is in (0: not yet) */
	char head[512];
	uint64_t sent_ns;
	uint64_t next_ns;    /* paced: when the next request goes (0: none waiting) */
} conn_t;

static struct sockaddr_in server, source;
static int ep;
static conn_t *conns;
static int n_conns, connecting, held, failed;
static uint32_t *hist;
static uint64_t requests, errors;
static int running; /* phase 2 */
static uint64_t stop_ns, count_from_ns, pace_ns;

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t) ts.tv_sec * 1000000000u + (uint64_t) ts.tv_nsec;
}

static void watch(conn_t *c, uint32_t events, int op)
{
	struct epoll_event ev = { .events = events, .data.ptr = c };
	epoll_ctl(ep, op, c->fd, &ev);
}

static void start_connect(conn_t *c)
{
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
	if (c->fd < 0) {
		perror("socket");
		exit(2);
	}
	int one = 1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
#ifdef IP_BIND_ADDRESS_NO_PORT
	/* The port is chosen at connect(), for the whole 4-tuple: bind() searching a free port
	 * among thousands of bound ones cost more than everything else of the ramp. */
	setsockopt(c->fd, IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one));
#endif
	if (bind(c->fd, (struct sockaddr *) &source, sizeof(source)) != 0) {
		perror("bind");
		exit(2);
	}
	c->tries++;
	c->state = CONNECTING;
	c->got = c->need = 0;
	connecting++;
	if (connect(c->fd, (struct sockaddr *) &server, sizeof(server)) != 0 && errno != EINPROGRESS) {
		perror("connect");
		exit(2);
	}
	watch(c, EPOLLOUT, EPOLL_CTL_ADD);
}

static void send_request(conn_t *c)
{
	c->sent_ns = now_ns();
	c->got = c->need = 0;
	if (write(c->fd, request, sizeof(request) - 1) != (ssize_t) sizeof(request) - 1) {
		c->state = GONE; /* a fresh socket takes 30 bytes at once, or it is gone */
		return;
	}
	c->state = SENT;
}

/* The connection failed or was closed. Before the run: retried; during it: counted. */
static void lost(conn_t *c)
{
	bool was_connecting = c->state == CONNECTING;
	epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
	close(c->fd);
	c->fd = -1;
	if (was_connecting) {
		connecting--;
	}
	if (running) {
		errors++;
		held--;
		c->state = GONE;
	} else if (c->state == HELD) {
		held--; /* closed while idle before the run: open it again */
		c->state = IDLE;
	} else {
		c->state = c->tries < MAX_TRIES ? IDLE : GONE;
		if (c->state == GONE) {
			failed++;
		}
	}
}

/* Reads what came; true when the response is complete. */
static int read_response(conn_t *c)
{
	for (;;) {
		char buf[4096];
		ssize_t n = read(c->fd, buf, sizeof(buf));
		if (n == 0) {
			return -1;
		}
		if (n < 0) {
			return errno == EAGAIN ? 0 : -1;
		}
		if (c->need == 0) {
			size_t take = (size_t) n < sizeof(c->head) - 1 - c->got ? (size_t) n : sizeof(c->head) - 1 - c->got;
			memcpy(c->head + c->got, buf, take);
			c->head[c->got + take] = '\0';
			char *end = strstr(c->head, "\r\n\r\n");
			if (end != NULL) {
				if (strncmp(c->head, "HTTP/1.1 200", 12) != 0) {
					return -1; /* a 503: refused */
				}
				char *cl = strcasestr(c->head, "content-length:");
				c->need = (size_t) (end + 4 - c->head) + (cl ? (size_t) atol(cl + 15) : 0);
			} else if (c->got + take >= sizeof(c->head) - 1) {
				return -1;
			}
		}
		c->got += (size_t) n;
		if (c->need != 0 && c->got >= c->need) {
			return 1;
		}
	}
}

static void on_event(conn_t *c, uint32_t events)
{
	if (c->state == CONNECTING) {
		int err = 0;
		socklen_t len = sizeof(err);
		getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len);
		if (err != 0 || (events & (EPOLLERR | EPOLLHUP))) {
			lost(c);
			return;
		}
		connecting--;
		watch(c, EPOLLIN | EPOLLRDHUP, EPOLL_CTL_MOD);
		send_request(c);
		if (c->state == GONE) {
			lost(c);
		}
		return;
	}
	int r = read_response(c);
	if (r < 0 || (c->state == HELD && (events & (EPOLLRDHUP | EPOLLHUP)))) {
		lost(c);
		return;
	}
	if (r == 0 || c->state != SENT) {
		return;
	}
	if (!running) {
		c->state = HELD; /* the first answer: held, idle until the run */
		held++;
		return;
	}
	uint64_t t = now_ns();
	if (t <= stop_ns) {
		if (t >= count_from_ns) {
			uint64_t b = (t - c->sent_ns) / 1000 / BUCKET_US;
			hist[b < BUCKETS ? b : BUCKETS - 1]++;
			requests++;
		}
		if (pace_ns != 0 && c->sent_ns + pace_ns > t) {
			c->next_ns = c->sent_ns + pace_ns; /* sent by the loop when due */
			c->state = HELD;
			return;
		}
		send_request(c);
		if (c->state == GONE) {
			lost(c);
		}
	} else {
		c->state = HELD;
	}
}

static void loop_once(int timeout_ms)
{
	struct epoll_event evs[1024];
	int n = epoll_wait(ep, evs, 1024, timeout_ms);
	for (int i = 0; i < n; i++) {
		on_event((conn_t *) evs[i].data.ptr, evs[i].events);
	}
}

int main(int argc, char **argv)
{
	if (argc < 6 || argc > 8) {
		fprintf(stderr, "usage: %s HOST PORT SOURCE_ADDRESS CONNECTIONS DURATION_MS [WARMUP_MS [PACE_MS]]\n", argv[0]);
		return 2;
	}
	server.sin_family = AF_INET;
	server.sin_port = htons((uint16_t) atoi(argv[2]));
	inet_pton(AF_INET, argv[1], &server.sin_addr);
	source.sin_family = AF_INET;
	inet_pton(AF_INET, argv[3], &source.sin_addr);
	n_conns = atoi(argv[4]);
	uint64_t duration_ns = (uint64_t) atol(argv[5]) * 1000000u;
	uint64_t warmup_ns = argc > 6 ? (uint64_t) atol(argv[6]) * 1000000u : 0;
	pace_ns = argc > 7 ? (uint64_t) atol(argv[7]) * 1000000u : 0;
	conns = calloc((size_t) n_conns, sizeof(conn_t));
	hist = calloc(BUCKETS, sizeof(uint32_t));
	ep = epoll_create1(0);

	/* 1. Open and hold. */
	for (;;) {
		int idle = 0;
		for (int i = 0; i < n_conns && connecting < MAX_CONNECTING; i++) {
			if (conns[i].state == IDLE) {
				start_connect(&conns[i]);
			}
		}
		for (int i = 0; i < n_conns; i++) {
			idle += conns[i].state == IDLE || conns[i].state == CONNECTING || conns[i].state == SENT;
		}
		if (idle == 0) {
			break;
		}
		loop_once(50);
	}
	printf("connected %d %d\n", held, failed);
	fflush(stdout);
	char line[64];
	if (fgets(line, sizeof(line), stdin) == NULL) {
		return 0;
	}

	/* 2. The run. */
	running = 1;
	uint64_t start_ns = now_ns();
	count_from_ns = start_ns + warmup_ns;
	stop_ns = count_from_ns + duration_ns;
	for (int i = 0; i < n_conns; i++) {
		if (conns[i].state == HELD) {
			if (pace_ns != 0) {
				conns[i].next_ns = start_ns + pace_ns * (uint64_t) i / (uint64_t) n_conns;
				continue;
			}
			send_request(&conns[i]);
			if (conns[i].state == GONE) {
				lost(&conns[i]);
			}
		}
	}
	while (now_ns() < stop_ns) {
		loop_once(pace_ns != 0 ? 1 : 10);
		if (pace_ns == 0) {
			continue;
		}
		uint64_t t = now_ns();
		for (int i = 0; i < n_conns && t < stop_ns; i++) {
			conn_t *c = &conns[i];
			if (c->state == HELD && c->next_ns != 0 && c->next_ns <= t) {
				c->next_ns = 0;
				send_request(c);
				if (c->state == GONE) {
					lost(c);
				}
			}
		}
	}
	printf("result requests=%llu errors=%llu held=%d\n", (unsigned long long) requests, (unsigned long long) errors, held);
	printf("hist");
	for (int b = 0; b < BUCKETS; b++) {
		if (hist[b]) {
			printf(" %d:%u", b * BUCKET_US, hist[b]);
		}
	}
	printf("\n");
	fflush(stdout);
	return 0;
}
