/*
 * chaos-proxy: a fault-injecting TCP proxy for ext-async's tests (docs/chaos.md, "The fault proxy").
 *
 * It sits between a client and an upstream and damages the traffic on purpose: latency and
 * jitter, a bandwidth cap, writes split into small pieces, a reset, a close or a half-close
 * after N bytes, a blackhole, a refusal, and "the upstream restarts" in the middle of a session.
 * Faults are chosen per connection and per direction, and everything random comes from one seed,
 * so that a failure seen once can be had again.
 *
 * Why C and not PHP on ext-async: the tool that injects the faults must not share a bug with the
 * runtime under test, and it needs exact control of the wire: a reset is SO_LINGER 0 then close(),
 * a half-close is shutdown(SHUT_WR), a 1-byte write is one send() of one byte on a TCP_NODELAY
 * socket. One file, libc only, one thread around poll(): nothing to install, nothing to race.
 *
 * Wire terms used below: a connection has two sides (the client's socket, the upstream's) and two
 * directions: UP, client to upstream, and DOWN, upstream to client. A direction reads its source
 * side and writes its destination side; data waits in the direction's queue until it is due.
 *
 * Output (stdout, one line each, flushed at once): "listening HOST:PORT seed=N" first; then
 * events ("conn ID WHAT ...", "upstream down ...", "upstream up", "warning ..."), and the answers
 * to the commands read on stdin ("ok CMD ...", "error ...", "stat ..."). EOF on stdin quits, so a
 * test that dies leaves no proxy behind.
 *
 * Linux is the target: the exact reset waits for SIOCOUTQ (bytes not yet acknowledged) to drop to
 * zero, so that the bytes before the reset are in the peer's kernel, not lost with our buffer.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/sockios.h>
#endif

enum { CLIENT = 0, UPSTREAM = 1 };      /* the two sides of a connection: fd[] */
enum { UP = 0, DOWN = 1 };              /* the two directions: UP reads fd[CLIENT], DOWN fd[UPSTREAM] */
static const char *const dir_name[2] = {"up", "down"};
static const char *const side_name[2] = {"client", "upstream"};

#define READ_MAX    65536               /* one recv() */
#define QUEUE_MAX   (256 * 1024)        /* a direction stops reading its source past this (backpressure) */
#define FLUSH_MAX   (256 * 1024)        /* bytes one direction writes per turn of the loop: fairness */
#define SPEC_TEXT   512
#define ADDR_TEXT   96                  /* "[v6 address]:port" */
#define NO_WAKE     UINT64_MAX

/* ---------------------------------------------------------------------------------------------
 * Faults. A direction's faults are an array of numbers, one per field, so that parsing, printing
 * and random picking are one table walk each. "off" is the value that means "no such fault".
 */
enum field { F_LATENCY, F_JITTER, F_BW, F_SPLIT, F_GAP, F_RESET_AFTER, F_CLOSE_AFTER,
             F_HALF_CLOSE_AFTER, F_BLACKHOLE, NFIELDS };

static const struct {
    const char *name;
    long long off, min, max;
    bool flag;                          /* written without "=value" */
} fields[NFIELDS] = {
    [F_LATENCY]         = {"latency", 0, 0, 3600000, false},           /* ms added to each chunk */
    [F_JITTER]          = {"jitter", 0, 0, 3600000, false},            /* + uniform 0..jitter ms */
    [F_BW]              = {"bw", 0, 1, 1LL << 40, false},              /* bytes per second */
    [F_SPLIT]           = {"split", 0, 1, READ_MAX, false},            /* bytes per send() */
    [F_GAP]             = {"gap", 0, 0, 3600000, false},               /* ms between split pieces */
    [F_RESET_AFTER]     = {"reset_after", -1, 0, 1LL << 50, false},
    [F_CLOSE_AFTER]     = {"close_after", -1, 0, 1LL << 50, false},
    [F_HALF_CLOSE_AFTER] = {"half_close_after", -1, 0, 1LL << 50, false},
    [F_BLACKHOLE]       = {"blackhole", 0, 1, 1, true},                /* this direction: discard */
};

/* What happens to a connection as a whole, before any direction's faults. */
enum mode { MODE_PASS, MODE_REFUSE, MODE_BLACKHOLE, MODE_RANDOM };

/* The faults `random` may pick from (one per connection), in the order their bits are numbered. */
static const char *const random_names[] = {"latency", "jitter", "bw", "split", "reset_after",
    "close_after", "half_close_after", "blackhole", "refuse", "none"};
#define NRANDOM (int) (sizeof random_names / sizeof random_names[0])
#define RANDOM_DEFAULT ((1u << (NRANDOM - 1)) - 1)     /* all but "none" */

struct fault { long long v[NFIELDS]; };

struct spec {
    enum mode mode;
    unsigned random_set;                /* MODE_RANDOM: bits of random_names */
    struct fault dir[2];
};

/* ---------------------------------------------------------------------------------------------
 * Connections.
 */
struct chunk {
    struct chunk *next;
    uint64_t due;                       /* monotonic µs before which it is not written (latency) */
    size_t len, off;
    bool eof;                           /* the source's EOF, passed on in order after the data */
    char data[];
};

struct dir {
    struct fault f;
    long long reset_at, close_at, half_at;  /* counts of bytes sent at which they fire; -1 = off */
    struct chunk *head, *tail;
    size_t queued;
    long long nread, nsent, nwrites;    /* bytes read, bytes sent, send() calls */
    uint64_t not_before;                /* bandwidth pacing and split gaps */
    uint64_t last_due;                  /* jitter must not reorder the stream */
    uint64_t rng;                       /* this direction's jitter */
    bool src_eof, dst_shut, discard, blocked;
};

enum state { S_CONNECTING, S_OPEN, S_RESETTING, S_BLACKHOLE, S_REFUSED, S_FAILED, S_RESET, S_CLOSED };
static const char *const state_name[] = {"connecting", "open", "resetting", "blackhole", "refused",
    "failed", "reset", "closed"};

struct conn {
    int id;
    int fd[2];                          /* CLIENT, UPSTREAM; -1 when not (or no longer) there */
    int pidx[2];                        /* their slots in this turn's pollfd array, or -1 */
    struct dir dir[2];                  /* UP, DOWN */
    enum state state;
    int reset_dir;                      /* S_RESETTING: the direction whose destination must drain */
    char spec[SPEC_TEXT];               /* the faults applied, as a spec */
    char why[160];                      /* how it ended */
};

/* ---------------------------------------------------------------------------------------------
 * The proxy's state: one of everything.
 */
enum down_mode { DOWN_REFUSE, DOWN_BLACKHOLE, DOWN_UNLISTEN };
static const char *const down_name[] = {"refuse", "blackhole", "unlisten"};

static struct {
    int listen_fd;
    struct sockaddr_storage listen_addr;    /* with the port actually bound, for re-listening */
    socklen_t listen_len;
    struct addrinfo *upstream;
    uint64_t seed;
    struct spec fault;                  /* for the connections accepted from now on */
    struct conn **conns;
    int nconns, cap;
    bool control, quiet;
    volatile sig_atomic_t quit;
    char line[4096];
    size_t line_len;
    bool down;                          /* restart-upstream: in its down time */
    enum down_mode down_mode;
    uint64_t down_until, relisten_at;
    uint64_t now, wake;                 /* this turn's clock, and the earliest timer for the next */
} P = {.listen_fd = -1};

/* ---------------------------------------------------------------------------------------------
 * Small helpers: clock, output, PRNG.
 */
static uint64_t clock_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t) ts.tv_sec * 1000000u + (uint64_t) ts.tv_nsec / 1000u;
}

static void want_wake(uint64_t at)
{
    if (at < P.wake) {
        P.wake = at;
    }
}

/* One line on stdout, flushed: the reader is a test waiting for exactly this line. */
static void emit(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* An event line, "conn ID ...": left out with --quiet. */
static void event(const struct conn *c, const char *fmt, ...)
{
    if (P.quiet) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    printf("conn %d ", c->id);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
    fflush(stdout);
}

/* splitmix64: tiny, and good enough to spread a seed over faults. Not rand(): its sequence is
 * the C library's, and it is one hidden global shared by everything. */
static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* One independent stream per (connection, purpose): what `random` picks for connection 7 depends
 * on the seed and on 7 only, not on how many jitter draws earlier connections happened to make. */
static uint64_t rng_stream(int conn_id, int purpose)
{
    uint64_t s = P.seed ^ ((uint64_t) conn_id * 0xd1b54a32d192ed03ULL) ^ ((uint64_t) purpose << 56);
    return splitmix64(&s);
}

/* Uniform in [lo, hi] (the modulo bias is irrelevant at these ranges). */
static long long rng_range(uint64_t *rng, long long lo, long long hi)
{
    return lo + (long long) (splitmix64(rng) % (uint64_t) (hi - lo + 1));
}

static void addr_text(const struct sockaddr *sa, socklen_t len, char *buf, size_t size)
{
    char host[64], port[16];            /* numeric: an IPv6 address is at most 45 characters */
    if (getnameinfo(sa, len, host, sizeof host, port, sizeof port, NI_NUMERICHOST | NI_NUMERICSERV) != 0) {
        snprintf(buf, size, "?");
    } else if (sa->sa_family == AF_INET6) {
        snprintf(buf, size, "[%s]:%s", host, port);
    } else {
        snprintf(buf, size, "%s:%s", host, port);
    }
}

/* "host:port" or "[v6]:port" into getaddrinfo()'s list; NULL and a message when it cannot. */
static struct addrinfo *resolve(const char *text, bool passive)
{
    char host[256];
    const char *port;
    if (text[0] == '[') {
        const char *end = strchr(text, ']');
        if (!end || end[1] != ':' || (size_t) (end - text - 1) >= sizeof host) {
            fprintf(stderr, "chaos-proxy: bad address %s (want [v6]:port)\n", text);
            return NULL;
        }
        memcpy(host, text + 1, (size_t) (end - text - 1));
        host[end - text - 1] = '\0';
        port = end + 2;
    } else {
        const char *colon = strrchr(text, ':');
        if (!colon || (size_t) (colon - text) >= sizeof host) {
            fprintf(stderr, "chaos-proxy: bad address %s (want host:port)\n", text);
            return NULL;
        }
        memcpy(host, text, (size_t) (colon - text));
        host[colon - text] = '\0';
        port = colon + 1;
    }
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = passive ? AI_PASSIVE : 0};
    struct addrinfo *res = NULL;
    int rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (rc != 0) {
        fprintf(stderr, "chaos-proxy: %s: %s\n", text, gai_strerror(rc));
        return NULL;
    }
    return res;
}

static void set_nonblock(int fd)
{
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
    fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Nagle would merge our split pieces and delay small writes the faults did not ask for. */
static void set_nodelay(int fd)
{
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

/* A reset: close() with SO_LINGER {on, 0} sends RST instead of FIN and drops unsent data. */
static void close_rst(int fd)
{
    struct linger lg = {.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    close(fd);
}

/* An orderly close: FIN first, then drop what the peer sent that nobody will read (close() with
 * unread data would turn the FIN into a reset), then close; the kernel still delivers what we
 * wrote before. */
static void close_fin(int fd)
{
    char sink[4096];
    shutdown(fd, SHUT_WR);
    for (int i = 0; i < 64 && recv(fd, sink, sizeof sink, MSG_DONTWAIT) > 0; i++) {
    }
    close(fd);
}

/* Bytes written to fd that the peer has not acknowledged yet; 0 where we cannot tell. */
static int unacked(int fd)
{
#ifdef SIOCOUTQ
    int n = 0;
    if (ioctl(fd, SIOCOUTQ, &n) == 0) {
        return n;
    }
#else
    (void) fd;
#endif
    return 0;
}

/* ---------------------------------------------------------------------------------------------
 * Fault specs: parsing and printing. A spec is words separated by spaces, e.g.
 * "latency=50 down:split=1 down:reset_after=100"; see usage() for the words.
 */
static void spec_clear(struct spec *s)
{
    s->mode = MODE_PASS;
    s->random_set = 0;
    for (int d = 0; d < 2; d++) {
        for (int f = 0; f < NFIELDS; f++) {
            s->dir[d].v[f] = fields[f].off;
        }
    }
}

static int field_index(const char *name)
{
    for (int f = 0; f < NFIELDS; f++) {
        if (strcmp(fields[f].name, name) == 0) {
            return f;
        }
    }
    return -1;
}

static bool parse_number(const char *text, long long min, long long max, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max) {
        return false;
    }
    *out = v;
    return true;
}

/* "random" or "random=reset_after,close_after": the set of faults it may pick from. */
static bool parse_random_set(const char *value, unsigned *set, char *err, size_t errlen)
{
    if (!value) {
        *set = RANDOM_DEFAULT;
        return true;
    }
    char copy[256];
    snprintf(copy, sizeof copy, "%s", value);
    *set = 0;
    char *save = NULL;
    for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
        int i = 0;
        while (i < NRANDOM && strcmp(random_names[i], name) != 0) {
            i++;
        }
        if (i == NRANDOM) {
            snprintf(err, errlen, "random cannot pick '%s'", name);
            return false;
        }
        *set |= 1u << i;
    }
    return *set != 0 || (snprintf(err, errlen, "random needs at least one fault"), false);
}

/* One word of a spec into *s. */
static bool spec_word(struct spec *s, char *word, char *err, size_t errlen)
{
    int first = UP, last = DOWN;
    bool qualified = true;
    if (strncmp(word, "up:", 3) == 0) {
        first = last = UP;
        word += 3;
    } else if (strncmp(word, "down:", 5) == 0) {
        first = last = DOWN;
        word += 5;
    } else {
        qualified = false;
    }
    char *value = strchr(word, '=');
    if (value) {
        *value++ = '\0';
    }
    if (!qualified && !value && (strcmp(word, "none") == 0 || strcmp(word, "refuse") == 0
                                 || strcmp(word, "blackhole") == 0)) {
        /* Whole-connection modes. "blackhole" unqualified never connects upstream at all. */
        s->mode = word[0] == 'n' ? MODE_PASS : word[0] == 'r' ? MODE_REFUSE : MODE_BLACKHOLE;
        return true;
    }
    if (!qualified && strcmp(word, "random") == 0) {
        s->mode = MODE_RANDOM;
        return parse_random_set(value, &s->random_set, err, errlen);
    }
    int f = field_index(word);
    if (f < 0) {
        snprintf(err, errlen, "unknown fault '%s'", word);
        return false;
    }
    long long v = 1;
    if (fields[f].flag ? value != NULL : !value || !parse_number(value, fields[f].min, fields[f].max, &v)) {
        snprintf(err, errlen, fields[f].flag ? "%s takes no value" : "%s wants a number in [%lld, %lld]",
                 word, fields[f].min, fields[f].max);
        return false;
    }
    for (int d = first; d <= last; d++) {
        s->dir[d].v[f] = v;
    }
    return true;
}

static bool spec_parse(const char *text, struct spec *s, char *err, size_t errlen)
{
    char copy[SPEC_TEXT];
    if (strlen(text) >= sizeof copy) {
        snprintf(err, errlen, "spec too long");
        return false;
    }
    snprintf(copy, sizeof copy, "%s", text);
    spec_clear(s);
    char *save = NULL;
    for (char *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (!spec_word(s, w, err, errlen)) {
            return false;
        }
    }
    return true;
}

static void append(char *buf, size_t size, const char *fmt, ...)
{
    size_t len = strlen(buf);
    if (len >= size - 1) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + len, size - len, fmt, ap);
    va_end(ap);
}

static void field_text(char *buf, size_t size, const char *prefix, int f, long long v)
{
    append(buf, size, buf[0] ? " %s%s" : "%s%s", prefix, fields[f].name);
    if (!fields[f].flag) {
        append(buf, size, "=%lld", v);
    }
}

/* The spec back as text, shortest form: a field equal in both directions is written once. */
static void spec_text(const struct spec *s, char *buf, size_t size)
{
    buf[0] = '\0';
    if (s->mode == MODE_REFUSE || s->mode == MODE_BLACKHOLE) {
        append(buf, size, s->mode == MODE_REFUSE ? "refuse" : "blackhole");
    } else if (s->mode == MODE_RANDOM) {
        append(buf, size, "random");
        if (s->random_set != RANDOM_DEFAULT) {
            for (int i = 0, n = 0; i < NRANDOM; i++) {
                if (s->random_set & (1u << i)) {
                    append(buf, size, "%c%s", n++ ? ',' : '=', random_names[i]);
                }
            }
        }
    }
    for (int f = 0; f < NFIELDS; f++) {
        long long up = s->dir[UP].v[f], down = s->dir[DOWN].v[f];
        if (up == down && up != fields[f].off) {
            field_text(buf, size, "", f, up);
            continue;
        }
        if (up != fields[f].off) {
            field_text(buf, size, "up:", f, up);
        }
        if (down != fields[f].off) {
            field_text(buf, size, "down:", f, down);
        }
    }
    if (!buf[0]) {
        append(buf, size, "none");
    }
}

/* `random`: one fault for this connection, from its own stream of the seed. The spec's other
 * words stay; the pick is added to them. */
static void spec_pick_random(struct spec *s, int conn_id)
{
    uint64_t rng = rng_stream(conn_id, 0);
    int choices[NRANDOM], n = 0;
    for (int i = 0; i < NRANDOM; i++) {
        if (s->random_set & (1u << i)) {
            choices[n++] = i;
        }
    }
    if (n == 0) {
        return;                         /* cannot happen: parse_random_set() wants one */
    }
    const char *name = random_names[choices[rng_range(&rng, 0, n - 1)]];
    int d = (int) rng_range(&rng, UP, DOWN);
    s->mode = MODE_PASS;
    if (strcmp(name, "refuse") == 0) {
        s->mode = MODE_REFUSE;
    } else if (strcmp(name, "blackhole") == 0) {
        s->mode = MODE_BLACKHOLE;
    } else if (strcmp(name, "none") != 0) {
        int f = field_index(name);
        long long v = f == F_LATENCY ? rng_range(&rng, 1, 200)
                    : f == F_JITTER ? rng_range(&rng, 1, 100)
                    : f == F_BW ? rng_range(&rng, 1024, 65536)
                    : f == F_SPLIT ? rng_range(&rng, 1, 4)
                    : rng_range(&rng, 0, 1023);            /* the *_after byte counts */
        s->dir[d].v[f] = v;
    }
}

/* ---------------------------------------------------------------------------------------------
 * Queues.
 */
static void queue_push(struct dir *q, const char *data, size_t len, bool eof)
{
    struct chunk *k = malloc(sizeof *k + len);
    if (!k) {
        perror("chaos-proxy: malloc");
        exit(2);
    }
    uint64_t delay = (uint64_t) q->f.v[F_LATENCY] * 1000u;
    if (q->f.v[F_JITTER] > 0) {
        delay += (uint64_t) rng_range(&q->rng, 0, q->f.v[F_JITTER] * 1000);
    }
    k->due = P.now + delay;
    if (k->due < q->last_due) {
        k->due = q->last_due;           /* TCP is a stream: a later chunk never overtakes */
    }
    q->last_due = k->due;
    k->next = NULL;
    k->len = len;
    k->off = 0;
    k->eof = eof;
    if (len) {
        memcpy(k->data, data, len);
    }
    if (q->tail) {
        q->tail->next = k;
    } else {
        q->head = k;
    }
    q->tail = k;
    q->queued += len;
}

static void queue_pop(struct dir *q)
{
    struct chunk *k = q->head;
    q->head = k->next;
    if (!q->head) {
        q->tail = NULL;
    }
    q->queued -= k->len - k->off;
    free(k);
}

static void queue_free(struct dir *q)
{
    while (q->head) {
        queue_pop(q);
    }
}

/* ---------------------------------------------------------------------------------------------
 * Connections: their ends.
 */
static bool conn_live(const struct conn *c)
{
    return c->state == S_CONNECTING || c->state == S_OPEN || c->state == S_RESETTING
        || c->state == S_BLACKHOLE;
}

static void conn_end(struct conn *c, enum state state, void (*closer)(int), const char *why)
{
    for (int side = 0; side < 2; side++) {
        if (c->fd[side] >= 0) {
            closer(c->fd[side]);
            c->fd[side] = -1;
        }
    }
    queue_free(&c->dir[UP]);
    queue_free(&c->dir[DOWN]);
    c->state = state;
    snprintf(c->why, sizeof c->why, "%s", why);
    event(c, "%s why=\"%s\"", state_name[state], why);
}

/* Both sides get a RST now. */
static void conn_reset(struct conn *c, const char *why)
{
    conn_end(c, S_RESET, close_rst, why);
}

/* Both sides get a FIN after what was already written. */
static void conn_close(struct conn *c, const char *why)
{
    conn_end(c, S_CLOSED, close_fin, why);
}

/* A reset after exactly N bytes: stop everything, wait until the destination's peer has
 * acknowledged all we wrote (a RST drops whatever is still in our send buffer), then reset. */
static void conn_start_reset(struct conn *c, int d)
{
    c->state = S_RESETTING;
    c->reset_dir = d;
    for (int i = UP; i <= DOWN; i++) {
        queue_free(&c->dir[i]);
        c->dir[i].blocked = false;      /* no more writes: polling for them would spin */
    }
    want_wake(P.now);
}

static void conn_check_reset(struct conn *c)
{
    int dst = c->fd[1 - c->reset_dir];
    if (dst >= 0 && unacked(dst) > 0) {
        want_wake(P.now + 1000);
        return;
    }
    char why[64];
    snprintf(why, sizeof why, "%s reset_after=%lld", dir_name[c->reset_dir], c->dir[c->reset_dir].f.v[F_RESET_AFTER]);
    conn_reset(c, why);
}

/* ---------------------------------------------------------------------------------------------
 * Connections: moving bytes.
 */

/* Applies a direction's faults; the byte counts start from what was sent so far (0 for a new
 * connection, the bytes already passed for `fault conn=ID`). */
static void dir_apply(struct dir *q, const struct fault *f)
{
    q->f = *f;
    q->reset_at = f->v[F_RESET_AFTER] < 0 ? -1 : q->nsent + f->v[F_RESET_AFTER];
    q->close_at = f->v[F_CLOSE_AFTER] < 0 ? -1 : q->nsent + f->v[F_CLOSE_AFTER];
    q->half_at = f->v[F_HALF_CLOSE_AFTER] < 0 ? -1 : q->nsent + f->v[F_HALF_CLOSE_AFTER];
    if (f->v[F_BLACKHOLE]) {
        q->discard = true;
    }
}

/* The byte-count faults whose count is reached. True when the connection stops moving data. */
static bool dir_thresholds(struct conn *c, int d)
{
    struct dir *q = &c->dir[d];
    char why[64];
    if (q->reset_at >= 0 && q->nsent >= q->reset_at) {
        conn_start_reset(c, d);
        return true;
    }
    if (q->close_at >= 0 && q->nsent >= q->close_at) {
        snprintf(why, sizeof why, "%s close_after=%lld", dir_name[d], q->f.v[F_CLOSE_AFTER]);
        conn_close(c, why);
        return true;
    }
    if (q->half_at >= 0 && q->nsent >= q->half_at) {
        /* The destination sees EOF; the other direction goes on. What the source sends from now
         * on is read and dropped, so that it never blocks on us. */
        shutdown(c->fd[1 - d], SHUT_WR);
        q->half_at = -1;
        q->dst_shut = true;
        q->discard = true;
        event(c, "half-closed dir=%s after=%lld", dir_name[d], q->nsent);
    }
    return false;
}

/* How many bytes of the head chunk may go in one send(), by split, bandwidth and byte counts. */
static size_t dir_piece(const struct dir *q, size_t n)
{
    if (q->f.v[F_SPLIT] > 0 && n > (size_t) q->f.v[F_SPLIT]) {
        n = (size_t) q->f.v[F_SPLIT];
    }
    if (q->f.v[F_BW] > 0) {
        size_t quantum = (size_t) (q->f.v[F_BW] / 100);     /* 10 ms worth at a time */
        if (n > quantum) {
            n = quantum ? quantum : 1;
        }
    }
    const long long at[3] = {q->reset_at, q->close_at, q->half_at};
    for (int i = 0; i < 3; i++) {
        if (at[i] >= 0 && (long long) n > at[i] - q->nsent) {
            n = (size_t) (at[i] - q->nsent);
        }
    }
    return n;
}

/* After a send(): when the next one may go. */
static void dir_pace(struct dir *q, size_t sent)
{
    if (q->f.v[F_BW] > 0) {
        uint64_t base = q->not_before > P.now ? q->not_before : P.now;
        q->not_before = base + (uint64_t) sent * 1000000u / (uint64_t) q->f.v[F_BW];
    }
    if (q->f.v[F_GAP] > 0) {
        uint64_t gap = P.now + (uint64_t) q->f.v[F_GAP] * 1000u;
        if (gap > q->not_before) {
            q->not_before = gap;
        }
    }
}

/* Writes what is due of direction d to its destination. */
static void dir_flush(struct conn *c, int d)
{
    struct dir *q = &c->dir[d];
    int dst = c->fd[1 - d];
    size_t budget = FLUSH_MAX;
    if (c->state != S_OPEN || dir_thresholds(c, d)) {
        return;
    }
    while (q->head && q->discard) {
        queue_pop(q);
    }
    while (q->head && budget > 0) {
        struct chunk *k = q->head;
        if (k->due > P.now) {
            want_wake(k->due);
            return;
        }
        if (k->eof) {
            shutdown(dst, SHUT_WR);     /* pass the source's EOF on: a half-close, as it came */
            q->dst_shut = true;
            queue_pop(q);
            event(c, "eof dir=%s after=%lld", dir_name[d], q->nsent);
            continue;
        }
        if (q->not_before > P.now) {
            want_wake(q->not_before);
            return;
        }
        size_t n = dir_piece(q, k->len - k->off);
        ssize_t w = send(dst, k->data + k->off, n, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (w < 0) {
            if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
                q->blocked = errno != EINTR;
                return;
            }
            char why[96];
            snprintf(why, sizeof why, "%s write: %s", side_name[1 - d], strerror(errno));
            conn_reset(c, why);
            return;
        }
        q->blocked = false;
        k->off += (size_t) w;
        q->queued -= (size_t) w;
        q->nsent += w;
        q->nwrites++;
        budget -= (size_t) w < budget ? (size_t) w : budget;
        dir_pace(q, (size_t) w);
        if (k->off == k->len) {
            queue_pop(q);
        }
        if (dir_thresholds(c, d)) {
            return;
        }
        while (q->head && q->discard) {
            queue_pop(q);
        }
    }
    if (q->head) {
        want_wake(P.now);               /* the budget ran out: go on next turn */
    }
}

static bool dir_can_read(const struct conn *c, int d)
{
    const struct dir *q = &c->dir[d];
    if (c->fd[d] < 0 || q->src_eof || q->queued >= QUEUE_MAX) {
        return false;
    }
    return c->state == S_OPEN || c->state == S_BLACKHOLE || (c->state == S_CONNECTING && d == UP);
}

/* One recv() from direction d's source into its queue (or into the void). */
static void dir_read(struct conn *c, int d)
{
    struct dir *q = &c->dir[d];
    char buf[READ_MAX];
    ssize_t r = recv(c->fd[d], buf, sizeof buf, MSG_DONTWAIT);
    if (r < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
            return;
        }
        char why[96];
        snprintf(why, sizeof why, "%s read: %s", side_name[d], strerror(errno));
        conn_reset(c, why);             /* a reset from one side is passed on to the other */
        return;
    }
    if (r == 0) {
        q->src_eof = true;
        if (!q->discard) {
            queue_push(q, NULL, 0, true);
        }
        return;
    }
    q->nread += r;
    if (!q->discard) {
        queue_push(q, buf, (size_t) r, false);
    }
}

/* The connection is over when both sources said EOF and all was passed on (or dropped). */
static bool dir_done(const struct conn *c, int d)
{
    const struct dir *q = &c->dir[d];
    return q->src_eof && !q->head && (q->dst_shut || q->discard);
}

static void conn_finish_connect(struct conn *c)
{
    int err = 0;
    socklen_t len = sizeof err;
    getsockopt(c->fd[UPSTREAM], SOL_SOCKET, SO_ERROR, &err, &len);
    if (err != 0) {
        char why[96];
        snprintf(why, sizeof why, "upstream connect: %s", strerror(err));
        conn_end(c, S_FAILED, close_rst, why);
        return;
    }
    c->state = S_OPEN;
    event(c, "upstream-connected");
}

/* One turn for one connection: revents of its client and upstream sides (0 when not polled). */
static void conn_pump(struct conn *c, short rev_client, short rev_upstream)
{
    const short readable = POLLIN | POLLHUP | POLLERR;
    if (c->state == S_CONNECTING && (rev_upstream & (POLLOUT | POLLERR | POLLHUP))) {
        conn_finish_connect(c);
    }
    if (c->state == S_RESETTING) {
        conn_check_reset(c);
        return;
    }
    if ((rev_client & readable) && dir_can_read(c, UP)) {
        dir_read(c, UP);
    }
    if ((rev_upstream & readable) && conn_live(c) && dir_can_read(c, DOWN)) {
        dir_read(c, DOWN);
    }
    for (int d = UP; d <= DOWN && conn_live(c); d++) {
        dir_flush(c, d);
    }
    if (c->state == S_RESETTING) {
        conn_check_reset(c);
    } else if (c->state == S_OPEN && dir_done(c, UP) && dir_done(c, DOWN)) {
        conn_close(c, "eof both ways");
    }
}

/* ---------------------------------------------------------------------------------------------
 * Accepting.
 */
static struct conn *conn_new(int client_fd)
{
    if (P.nconns == P.cap) {
        P.cap = P.cap ? P.cap * 2 : 64;
        P.conns = realloc(P.conns, (size_t) P.cap * sizeof *P.conns);
    }
    struct conn *c = calloc(1, sizeof *c);
    if (!P.conns || !c) {
        perror("chaos-proxy: alloc");
        exit(2);
    }
    c->id = P.nconns + 1;
    c->fd[CLIENT] = client_fd;
    c->fd[UPSTREAM] = -1;
    c->pidx[CLIENT] = c->pidx[UPSTREAM] = -1;
    for (int d = 0; d < 2; d++) {
        c->dir[d].rng = rng_stream(c->id, 1 + d);
        c->dir[d].reset_at = c->dir[d].close_at = c->dir[d].half_at = -1;
    }
    P.conns[P.nconns++] = c;
    return c;
}

static void conn_connect_upstream(struct conn *c)
{
    const struct addrinfo *ai = P.upstream;
    int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
    if (fd < 0) {
        conn_end(c, S_FAILED, close_rst, strerror(errno));
        return;
    }
    set_nonblock(fd);
    set_nodelay(fd);
    c->fd[UPSTREAM] = fd;
    c->state = S_CONNECTING;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
        conn_finish_connect(c);
    } else if (errno != EINPROGRESS) {
        char why[96];
        snprintf(why, sizeof why, "upstream connect: %s", strerror(errno));
        conn_end(c, S_FAILED, close_rst, why);
    }
}

/* A new client: which faults it gets (the default spec, `random`'s pick, or the restart's down
 * time), then refuse it, blackhole it, or connect it upstream. */
static void conn_accepted(int fd, const struct sockaddr *sa, socklen_t len)
{
    set_nonblock(fd);
    set_nodelay(fd);
    struct conn *c = conn_new(fd);
    struct spec s = P.fault;
    bool random = s.mode == MODE_RANDOM;
    if (random) {
        spec_pick_random(&s, c->id);
    }
    if (P.down) {
        s.mode = P.down_mode == DOWN_BLACKHOLE ? MODE_BLACKHOLE : MODE_REFUSE;
    }
    spec_text(&s, c->spec, sizeof c->spec);
    char from[ADDR_TEXT];
    addr_text(sa, len, from, sizeof from);
    event(c, "accepted client=%s fault=\"%s\"%s%s", from, c->spec, random ? " random=1" : "",
          P.down ? " upstream=down" : "");
    for (int d = 0; d < 2; d++) {
        dir_apply(&c->dir[d], &s.dir[d]);
    }
    if (s.mode == MODE_REFUSE) {
        /* A listening socket cannot refuse one connection: the kernel completed the handshake
         * before accept(). The closest is a RST at once. */
        conn_end(c, S_REFUSED, close_rst, "refuse");
    } else if (s.mode == MODE_BLACKHOLE) {
        c->state = S_BLACKHOLE;         /* no upstream: read the client, drop it, never answer */
        c->dir[UP].discard = true;
        c->dir[DOWN].src_eof = true;
        c->dir[DOWN].discard = true;
    } else {
        conn_connect_upstream(c);
    }
}

static void accept_all(void)
{
    for (int i = 0; i < 64 && P.listen_fd >= 0; i++) {
        struct sockaddr_storage ss;
        socklen_t len = sizeof ss;
        int fd = accept(P.listen_fd, (struct sockaddr *) &ss, &len);
        if (fd < 0) {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR && errno != ECONNABORTED) {
                emit("warning accept: %s", strerror(errno));
            }
            return;
        }
        conn_accepted(fd, (struct sockaddr *) &ss, len);
    }
}

static int listen_on(const struct sockaddr *sa, socklen_t len)
{
    int fd = socket(sa->sa_family, SOCK_STREAM, 0);
    int one = 1;
    if (fd < 0) {
        return -1;
    }
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(fd, sa, len) != 0 || listen(fd, 1024) != 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    set_nonblock(fd);
    return fd;
}

/* ---------------------------------------------------------------------------------------------
 * restart-upstream: every live session loses its upstream at once (both sides get a RST, as a
 * killed server's peers do); for down_ms new clients are refused, blackholed, or find no listener
 * at all (unlisten: a true ECONNREFUSED); then the upstream is "back".
 */
static void restart_upstream(uint64_t down_ms, enum down_mode mode)
{
    for (int i = 0; i < P.nconns; i++) {
        struct conn *c = P.conns[i];
        if (c->state == S_CONNECTING || c->state == S_OPEN || c->state == S_RESETTING) {
            conn_reset(c, "restart-upstream");
        }
    }
    P.down = true;
    P.down_mode = mode;
    P.down_until = P.now + down_ms * 1000u;
    if (mode == DOWN_UNLISTEN && P.listen_fd >= 0) {
        close(P.listen_fd);
        P.listen_fd = -1;
    }
    emit("upstream down ms=%llu mode=%s", (unsigned long long) down_ms, down_name[mode]);
}

static void restart_tick(void)
{
    if (!P.down) {
        return;
    }
    if (P.now < P.down_until) {
        want_wake(P.down_until);
        return;
    }
    if (P.listen_fd < 0) {
        if (P.now < P.relisten_at) {
            want_wake(P.relisten_at);
            return;
        }
        P.listen_fd = listen_on((struct sockaddr *) &P.listen_addr, P.listen_len);
        if (P.listen_fd < 0) {
            emit("warning listen again: %s (retrying)", strerror(errno));
            P.relisten_at = P.now + 100000;
            want_wake(P.relisten_at);
            return;
        }
    }
    P.down = false;
    emit("upstream up");
}

/* ---------------------------------------------------------------------------------------------
 * The control channel: one command a line on stdin, one answer ("ok ..." or "error ..."),
 * written once the command has taken effect: a test that read "ok" may rely on it.
 */
static struct conn *conn_by_id(long long id)
{
    return id >= 1 && id <= P.nconns ? P.conns[id - 1] : NULL;
}

static void cmd_fault_conn(struct conn *c, const struct spec *given)
{
    struct spec s = *given;
    if (s.mode == MODE_RANDOM) {
        spec_pick_random(&s, c->id);
    }
    spec_text(&s, c->spec, sizeof c->spec);
    if (s.mode == MODE_REFUSE) {
        conn_reset(c, "fault refuse");
    } else {
        for (int d = 0; d < 2; d++) {
            dir_apply(&c->dir[d], &s.dir[d]);
            if (s.mode == MODE_BLACKHOLE) {
                c->dir[d].discard = true;   /* a live one: nothing passes any more, either way */
            }
        }
        want_wake(P.now);
    }
    emit("ok fault conn=%d fault=\"%s\"", c->id, c->spec);    /* answered once it is done */
}

static void cmd_fault(char *args)
{
    char err[160];
    struct spec s;
    if (strncmp(args, "conn=", 5) == 0) {
        long long id;
        char *rest = args + 5 + strcspn(args + 5, " \t");
        if (*rest) {
            *rest++ = '\0';
        }
        struct conn *c = parse_number(args + 5, 1, INT32_MAX, &id) ? conn_by_id(id) : NULL;
        if (!c || !conn_live(c)) {
            emit("error fault: no live connection %s", args + 5);
        } else if (!spec_parse(rest, &s, err, sizeof err)) {
            emit("error fault: %s", err);
        } else {
            cmd_fault_conn(c, &s);
        }
        return;
    }
    if (!spec_parse(args, &s, err, sizeof err)) {
        emit("error fault: %s", err);
        return;
    }
    if (*args) {
        P.fault = s;
    }
    char text[SPEC_TEXT];
    spec_text(&P.fault, text, sizeof text);
    emit("ok fault default=\"%s\"", text);
}

static void cmd_restart(char *args)
{
    long long ms = 0;
    enum down_mode mode = DOWN_REFUSE;
    char *save = NULL;
    for (char *w = strtok_r(args, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
        if (strcmp(w, "refuse") == 0 || strcmp(w, "blackhole") == 0 || strcmp(w, "unlisten") == 0) {
            mode = w[0] == 'r' ? DOWN_REFUSE : w[0] == 'b' ? DOWN_BLACKHOLE : DOWN_UNLISTEN;
        } else if (!parse_number(w, 0, 86400000, &ms)) {
            emit("error restart-upstream: want [down_ms] [refuse|blackhole|unlisten]");
            return;
        }
    }
    restart_upstream((uint64_t) ms, mode);
    emit("ok restart-upstream down_ms=%lld mode=%s", ms, down_name[mode]);
}

static void cmd_stats(void)
{
    for (int i = 0; i < P.nconns; i++) {
        const struct conn *c = P.conns[i];
        emit("stat id=%d state=%s up_read=%lld up_sent=%lld up_writes=%lld down_read=%lld down_sent=%lld"
             " down_writes=%lld fault=\"%s\" why=\"%s\"", c->id, state_name[c->state], c->dir[UP].nread,
             c->dir[UP].nsent, c->dir[UP].nwrites, c->dir[DOWN].nread, c->dir[DOWN].nsent, c->dir[DOWN].nwrites,
             c->spec, c->why);
    }
    emit("ok stats n=%d", P.nconns);
}

static void cmd_help(void)
{
    emit("help fault SPEC                 faults for the connections accepted from now on");
    emit("help fault                      show them");
    emit("help fault conn=ID SPEC         replace a live connection's faults (counts start now)");
    emit("help restart-upstream [MS] [refuse|blackhole|unlisten]  reset every session's upstream");
    emit("help stats                      one 'stat' line per connection");
    emit("help quit");
    emit("ok help");
}

static void command(char *line)
{
    char *args = line + strcspn(line, " \t");
    if (*args) {
        *args++ = '\0';
        args += strspn(args, " \t");
    }
    if (strcmp(line, "fault") == 0) {
        cmd_fault(args);
    } else if (strcmp(line, "restart-upstream") == 0) {
        cmd_restart(args);
    } else if (strcmp(line, "stats") == 0) {
        cmd_stats();
    } else if (strcmp(line, "help") == 0) {
        cmd_help();
    } else if (strcmp(line, "quit") == 0) {
        emit("ok quit");
        P.quit = 1;
    } else if (line[0]) {
        emit("error unknown command '%s' (try help)", line);
    }
}

/* stdin is read only when poll() says it is readable, so one read() never blocks; it stays in
 * blocking mode (O_NONBLOCK on a terminal would reach the shell that shares it). */
static void control_read(void)
{
    ssize_t r = read(STDIN_FILENO, P.line + P.line_len, sizeof P.line - P.line_len);
    if (r <= 0) {
        if (r == 0 || (errno != EINTR && errno != EAGAIN)) {
            P.quit = 1;                 /* our parent is gone: so are we */
        }
        return;
    }
    P.line_len += (size_t) r;
    char *start = P.line, *nl;
    while ((nl = memchr(start, '\n', P.line_len - (size_t) (start - P.line)))) {
        *nl = '\0';
        if (nl > start && nl[-1] == '\r') {
            nl[-1] = '\0';
        }
        command(start);
        start = nl + 1;
    }
    P.line_len -= (size_t) (start - P.line);
    memmove(P.line, start, P.line_len);
    if (P.line_len == sizeof P.line) {
        emit("error command line too long");
        P.line_len = 0;
    }
}

/* ---------------------------------------------------------------------------------------------
 * The loop.
 */
static void on_signal(int sig)
{
    (void) sig;
    P.quit = 1;
}

static void poll_conn_fd(struct pollfd *pfds, int *n, struct conn *c, int side, short events)
{
    c->pidx[side] = -1;
    if (c->fd[side] >= 0 && events) {
        /* fds with no interest stay out: a dead peer's POLLHUP would otherwise spin the loop */
        pfds[*n] = (struct pollfd) {.fd = c->fd[side], .events = events};
        c->pidx[side] = (*n)++;
    }
}

static void run(void)
{
    struct pollfd *pfds = NULL;
    int pcap = 0;
    P.wake = NO_WAKE;
    while (!P.quit) {
        if (pcap < 2 + 2 * P.nconns) {
            pcap = 2 + 2 * P.cap + 64;
            pfds = realloc(pfds, (size_t) pcap * sizeof *pfds);
            if (!pfds) {
                perror("chaos-proxy: alloc");
                exit(2);
            }
        }
        int n = 0, listen_idx = -1, ctl_idx = -1;
        if (P.listen_fd >= 0) {
            pfds[listen_idx = n++] = (struct pollfd) {.fd = P.listen_fd, .events = POLLIN};
        }
        if (P.control) {
            pfds[ctl_idx = n++] = (struct pollfd) {.fd = STDIN_FILENO, .events = POLLIN};
        }
        for (int i = 0; i < P.nconns; i++) {
            struct conn *c = P.conns[i];
            short client = 0, upstream = 0;
            if (conn_live(c)) {
                client = (short) ((dir_can_read(c, UP) ? POLLIN : 0) | (c->dir[DOWN].blocked ? POLLOUT : 0));
                upstream = (short) ((dir_can_read(c, DOWN) ? POLLIN : 0)
                                    | (c->state == S_CONNECTING || c->dir[UP].blocked ? POLLOUT : 0));
            }
            poll_conn_fd(pfds, &n, c, CLIENT, client);
            poll_conn_fd(pfds, &n, c, UPSTREAM, upstream);
        }
        int timeout = -1;
        if (P.wake != NO_WAKE) {
            uint64_t now = clock_us();
            timeout = P.wake <= now ? 0 : (int) ((P.wake - now + 999) / 1000);
        }
        if (poll(pfds, (nfds_t) n, timeout) < 0 && errno != EINTR) {
            perror("chaos-proxy: poll");
            exit(2);
        }
        P.now = clock_us();
        P.wake = NO_WAKE;
        if (ctl_idx >= 0 && pfds[ctl_idx].revents) {
            control_read();
        }
        if (listen_idx >= 0 && pfds[listen_idx].revents && pfds[listen_idx].fd == P.listen_fd) {
            accept_all();
        }
        restart_tick();
        for (int i = 0; i < P.nconns; i++) {
            struct conn *c = P.conns[i];
            if (conn_live(c)) {
                conn_pump(c, c->pidx[CLIENT] >= 0 ? pfds[c->pidx[CLIENT]].revents : 0,
                          c->pidx[UPSTREAM] >= 0 ? pfds[c->pidx[UPSTREAM]].revents : 0);
            }
            c->pidx[CLIENT] = c->pidx[UPSTREAM] = -1;   /* new conns of this turn were not polled */
        }
    }
    free(pfds);
}

/* ---------------------------------------------------------------------------------------------
 * Start-up.
 */
static void usage(FILE *to)
{
    fprintf(to,
        "usage: chaos-proxy --upstream HOST:PORT [options]\n"
        "A fault-injecting TCP proxy for tests (docs/chaos.md).\n"
        "\n"
        "  -u, --upstream HOST:PORT  where connections are forwarded (required)\n"
        "  -l, --listen HOST:PORT    where to listen (default 127.0.0.1:0; port 0 = a free port)\n"
        "  -s, --seed N              seed of jitter and `random` (default: from the clock; printed)\n"
        "  -f, --fault SPEC          faults for new connections (default: none)\n"
        "  -n, --no-control          ignore stdin, run until SIGINT/SIGTERM\n"
        "                            (otherwise stdin takes commands, and EOF on it quits)\n"
        "  -q, --quiet               no 'conn ...' event lines\n"
        "  -h, --help\n"
        "\n"
        "First line on stdout: 'listening HOST:PORT seed=N'.\n"
        "\n"
        "SPEC: words separated by spaces; a fault word may be prefixed with up: (client to\n"
        "upstream) or down: (upstream to client), else it applies to both directions.\n"
        "  latency=MS           each chunk waits MS before it is passed on\n"
        "  jitter=MS            plus uniform 0..MS from the seed (order is kept)\n"
        "  bw=BYTES             at most BYTES per second (after the first 10 ms worth)\n"
        "  split=N              written N bytes per send() (split=1: byte by byte)\n"
        "  gap=MS               a pause after each send() (with split: between pieces)\n"
        "  reset_after=N        after N bytes passed, both sides get a RST (the N bytes are\n"
        "                       acknowledged by the receiver first)\n"
        "  close_after=N        after N bytes passed, both sides get a FIN\n"
        "  half_close_after=N   after N bytes passed, shutdown(SHUT_WR) toward the receiver;\n"
        "                       the other direction goes on\n"
        "  up:blackhole, down:blackhole   that direction's bytes are read and dropped\n"
        "  blackhole            (unqualified) no upstream: read the client, never answer\n"
        "  refuse               accept, then RST at once (a listener cannot refuse one client)\n"
        "  random[=F,F,...]     one fault per connection picked by the seed among latency,\n"
        "                       jitter, bw, split, reset_after, close_after, half_close_after,\n"
        "                       blackhole, refuse, none (default: all but none)\n"
        "  none                 pass everything (the default)\n"
        "\n"
        "Commands on stdin (each answered 'ok ...' or 'error ...'):\n"
        "  fault SPEC           faults for the connections accepted from now on\n"
        "  fault conn=ID SPEC   replace a live connection's faults; byte counts start now\n"
        "  restart-upstream [MS] [refuse|blackhole|unlisten]\n"
        "                       RST both sides of every session now; for MS new clients are\n"
        "                       refused (default), blackholed, or find no listener; then\n"
        "                       'upstream up'\n"
        "  stats                one 'stat id=...' line per connection, then 'ok stats n=N'\n"
        "  help, quit\n");
}

static bool setup_listener(const char *text)
{
    struct addrinfo *ai = resolve(text, true);
    if (!ai) {
        return false;
    }
    P.listen_fd = listen_on(ai->ai_addr, ai->ai_addrlen);
    if (P.listen_fd < 0) {
        fprintf(stderr, "chaos-proxy: listen on %s: %s\n", text, strerror(errno));
        freeaddrinfo(ai);
        return false;
    }
    freeaddrinfo(ai);
    P.listen_len = sizeof P.listen_addr;
    getsockname(P.listen_fd, (struct sockaddr *) &P.listen_addr, &P.listen_len);
    return true;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"upstream", required_argument, NULL, 'u'}, {"listen", required_argument, NULL, 'l'},
        {"seed", required_argument, NULL, 's'}, {"fault", required_argument, NULL, 'f'},
        {"no-control", no_argument, NULL, 'n'}, {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'}, {NULL, 0, NULL, 0}};
    const char *listen_text = "127.0.0.1:0", *upstream_text = NULL, *fault_text = "";
    bool seeded = false;
    char err[160];
    int o;
    P.control = true;
    while ((o = getopt_long(argc, argv, "u:l:s:f:nqh", opts, NULL)) != -1) {
        switch (o) {
        case 'u': upstream_text = optarg; break;
        case 'l': listen_text = optarg; break;
        case 's': {
            char *end;
            errno = 0;
            P.seed = strtoull(optarg, &end, 0);
            if (errno || end == optarg || *end) {
                fprintf(stderr, "chaos-proxy: bad seed %s\n", optarg);
                return 2;
            }
            seeded = true;
            break;
        }
        case 'f': fault_text = optarg; break;
        case 'n': P.control = false; break;
        case 'q': P.quiet = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); return 2;
        }
    }
    if (!upstream_text || optind != argc) {
        usage(stderr);
        return 2;
    }
    if (!spec_parse(fault_text, &P.fault, err, sizeof err)) {
        fprintf(stderr, "chaos-proxy: --fault: %s\n", err);
        return 2;
    }
    if (!seeded) {
        P.seed = clock_us() ^ ((uint64_t) getpid() << 32);
    }
    if (!(P.upstream = resolve(upstream_text, false)) || !setup_listener(listen_text)) {
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    char where[ADDR_TEXT];
    addr_text((struct sockaddr *) &P.listen_addr, P.listen_len, where, sizeof where);
    emit("listening %s seed=%llu", where, (unsigned long long) P.seed);
    run();
    for (int i = 0; i < P.nconns; i++) {
        if (conn_live(P.conns[i])) {
            conn_close(P.conns[i], "quit");
        }
        free(P.conns[i]);
    }
    free(P.conns);
    if (P.listen_fd >= 0) {
        close(P.listen_fd);
    }
    freeaddrinfo(P.upstream);
    return 0;
}
