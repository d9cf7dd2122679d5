/*
 * http_c_floor.c: the floor of an HTTP keep-alive server in C, for bench/http.sh (CFLOOR=1).
 *
 * Not a server anyone should use: it counts request heads ("\r\n\r\n") in what one recv() brought
 * and answers each with the fixed "Hello" response in one send(). It makes the same system calls
 * per request as nginx `return 200` and examples/http_server.php (one recv, one send, an
 * epoll_wait per batch of ready connections), with next to no user-space work, so its rate is what
 * the kernel's TCP work alone allows on this machine: the ceiling of any server with those calls.
 *
 * Built with -DWITH_LIBURING (and -luring) it is the same server on io_uring instead: each
 * connection keeps one recv submitted, an answer is a send submission, and one io_uring_enter()
 * submits and reaps a whole batch (IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN, Linux 6.1+; without
 * them, where the kernel refuses them, it runs on a plain ring). That measures what fewer system
 * calls per request would buy.
 *
 *   cc -O2 -o http_c_floor bench/http_c_floor.c && ./http_c_floor 8080
 *   cc -O2 -DWITH_LIBURING -o http_c_uring bench/http_c_floor.c -luring && ./http_c_uring 8080
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static const char HELLO[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nHello";
#define HELLO_LEN (sizeof(HELLO) - 1)
#define BUF_SIZE 4096
/* answers that fit in one buffer: pipelined heads beyond are not answered (wrk does not pipeline) */
#define MAX_ANSWERS (BUF_SIZE / HELLO_LEN)

static int listen_on(int port)
{
	int s = socket(AF_INET, SOCK_STREAM, 0), one = 1;
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short) port) };
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s < 0 || bind(s, (struct sockaddr *) &a, sizeof(a)) != 0 || listen(s, 1024) != 0) {
		perror("http_c_floor: listen");
		exit(1);
	}
	return s;
}

/* The answers to the complete request heads in buf, written to out; their length. */
static size_t answer(const char *buf, ssize_t n, char *out)
{
	size_t len = 0, count = 0;
	for (ssize_t i = 3; i < n && count < MAX_ANSWERS; i++) {
		if (buf[i] == '\n' && buf[i - 1] == '\r' && buf[i - 2] == '\n' && buf[i - 3] == '\r') {
			memcpy(out + len, HELLO, HELLO_LEN);
			len += HELLO_LEN;
			count++;
		}
	}
	return len;
}

static void no_delay(int fd)
{
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)); /* as nginx's tcp_nodelay */
}

#ifndef WITH_LIBURING

#include <sys/epoll.h>

int main(int argc, char **argv)
{
	int ls = listen_on(argc > 1 ? atoi(argv[1]) : 8080);
	int ep = epoll_create1(0);
	struct epoll_event ev = { .events = EPOLLIN, .data.fd = ls }, events[512];
	static char buf[BUF_SIZE], out[BUF_SIZE];
	fcntl(ls, F_SETFL, O_NONBLOCK);
	epoll_ctl(ep, EPOLL_CTL_ADD, ls, &ev);
	printf("listening on 127.0.0.1:%s (epoll)\n", argc > 1 ? argv[1] : "8080");
	fflush(stdout);
	for (;;) {
		int n = epoll_wait(ep, events, 512, -1);
		for (int i = 0; i < n; i++) {
			int fd = events[i].data.fd, c;
			if (fd == ls) {
				while ((c = accept4(ls, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
					struct epoll_event e = { .events = EPOLLIN, .data.fd = c };
					no_delay(c);
					epoll_ctl(ep, EPOLL_CTL_ADD, c, &e);
				}
				continue;
			}
			ssize_t got = recv(fd, buf, sizeof(buf), 0);
			if (got < 0 && (errno == EAGAIN || errno == EINTR)) {
				continue;
			}
			if (got <= 0) {
				close(fd); /* epoll forgets a closed descriptor */
				continue;
			}
			size_t len = answer(buf, got, out);
			if (len != 0 && send(fd, out, len, 0) < 0 && errno != EAGAIN) {
				close(fd);
			}
		}
	}
}

#else /* WITH_LIBURING */

#include <liburing.h>

#ifndef IORING_SETUP_SINGLE_ISSUER
# define IORING_SETUP_SINGLE_ISSUER (1U << 12)
#endif
#ifndef IORING_SETUP_DEFER_TASKRUN
# define IORING_SETUP_DEFER_TASKRUN (1U << 13)
#endif

enum { OP_ACCEPT = 1, OP_RECV, OP_SEND };
#define MAX_FD 4096

static struct io_uring ring;
static char bufs[MAX_FD][BUF_SIZE];
static char outs[MAX_FD][BUF_SIZE];

static struct io_uring_sqe *next_sqe(void)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
	if (sqe == NULL) {
		io_uring_submit(&ring); /* the ring is full: hand it over, then there is room */
		sqe = io_uring_get_sqe(&ring);
	}
	return sqe;
}

static void submit(int op, int fd, void (*prep)(struct io_uring_sqe *, int))
{
	struct io_uring_sqe *sqe = next_sqe();
	prep(sqe, fd);
	io_uring_sqe_set_data64(sqe, ((unsigned long long) op << 32) | (unsigned) fd);
}

static int listener;
static void prep_accept(struct io_uring_sqe *sqe, int fd) { io_uring_prep_accept(sqe, listener, NULL, NULL, 0); }
static void prep_recv(struct io_uring_sqe *sqe, int fd) { io_uring_prep_recv(sqe, fd, bufs[fd], BUF_SIZE, 0); }

int main(int argc, char **argv)
{
	listener = listen_on(argc > 1 ? atoi(argv[1]) : 8080);
	int rc = io_uring_queue_init(1024, &ring, IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN);
	const char *kind = "io_uring, deferred task work";
	if (rc < 0) {
		rc = io_uring_queue_init(1024, &ring, 0);
		kind = "io_uring";
	}
	if (rc < 0) {
		fprintf(stderr, "http_c_floor: io_uring: %s\n", strerror(-rc));
		return 1;
	}
	printf("listening on 127.0.0.1:%s (%s)\n", argc > 1 ? argv[1] : "8080", kind);
	fflush(stdout);
	submit(OP_ACCEPT, 0, prep_accept);
	for (;;) {
		io_uring_submit_and_wait(&ring, 1);
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			unsigned long long data = io_uring_cqe_get_data64(cqe);
			int op = (int) (data >> 32), fd = (int) (data & 0xffffffffu), res = cqe->res;
			seen++;
			if (op == OP_ACCEPT) {
				if (res >= MAX_FD) {
					close(res);
				} else if (res >= 0) {
					no_delay(res);
					submit(OP_RECV, res, prep_recv);
				}
				submit(OP_ACCEPT, 0, prep_accept);
			} else if (op == OP_RECV) {
				if (res <= 0) {
					close(fd);
					continue;
				}
				size_t len = answer(bufs[fd], res, outs[fd]);
				if (len != 0) {
					struct io_uring_sqe *sqe = next_sqe();
					io_uring_prep_send(sqe, fd, outs[fd], len, 0);
					io_uring_sqe_set_data64(sqe, ((unsigned long long) OP_SEND << 32) | (unsigned) fd);
				}
				submit(OP_RECV, fd, prep_recv);
			}
		}
		io_uring_cq_advance(&ring, seen);
	}
}

#endif /* WITH_LIBURING */
