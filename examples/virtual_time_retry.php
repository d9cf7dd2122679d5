<?php
/*
 * Testing a retry-with-back-off client without waiting: Async\Testing\virtual_time().
 *
 * The client below retries a failing call with exponential back-off (1 s, 2 s, 4 s, 8 s, 16 s):
 * a test of its give-up path sleeps 31 s in real time. Inside virtual_time() the sleeps are on a
 * virtual clock that jumps whenever every coroutine of the test waits on time only, so both tests
 * run in milliseconds, and time(), hrtime() and DateTime see the 31 s go by.
 *
 *   php -d extension=modules/async.so examples/virtual_time_retry.php
 *
 * With PHPUnit installed (vendor/autoload.php beside or above), the same class runs as a
 * PHPUnit TestCase: vendor/bin/phpunit examples/virtual_time_retry.php
 */
declare(strict_types=1);

use function Async\Testing\virtual_time;

final class RetryingClient
{
    /** @var list<int> when each attempt was made (time()) */
    public array $attempts = [];

    /** @param callable(): string $send */
    public function __construct(private $send, private int $maxAttempts = 6, private int $firstDelayMs = 1000)
    {
    }

    public function call(): string
    {
        for ($attempt = 1; ; $attempt++) {
            $this->attempts[] = time();
            try {
                return ($this->send)();
            } catch (RuntimeException $e) {
                if ($attempt >= $this->maxAttempts) {
                    throw new RuntimeException("gave up after $attempt attempts", 0, $e);
                }
                usleep($this->firstDelayMs * 1000 * 2 ** ($attempt - 1)); // suspends: a coroutine
            }
        }
    }
}

foreach ([__DIR__ . '/../vendor/autoload.php', __DIR__ . '/vendor/autoload.php'] as $autoload) {
    if (is_file($autoload)) {
        require_once $autoload;
        break;
    }
}
if (!class_exists(PHPUnit\Framework\TestCase::class)) {
    /* plain PHP: the few assertions the tests use */
    abstract class RetryTestBase
    {
        protected function assertSame(mixed $expected, mixed $actual, string $what = ''): void
        {
            if ($expected !== $actual) {
                throw new AssertionError(sprintf('%s: expected %s, got %s', $what ?: 'assertSame',
                    var_export($expected, true), var_export($actual, true)));
            }
        }

        protected function assertTrue(bool $condition, string $what = ''): void
        {
            $this->assertSame(true, $condition, $what);
        }
    }
} else {
    abstract class RetryTestBase extends PHPUnit\Framework\TestCase
    {
    }
}

final class RetryingClientTest extends RetryTestBase
{
    public function testSucceedsAfterFourFailures(): void
    {
        virtual_time(function () {
            $failures = 4;
            $client = new RetryingClient(function () use (&$failures) {
                if ($failures-- > 0) {
                    throw new RuntimeException('503 Service Unavailable');
                }
                return '200 OK';
            });
            $start = hrtime(true);
            $this->assertSame('200 OK', $client->call());
            $this->assertSame(15_000, intdiv(hrtime(true) - $start, 1_000_000), 'virtual ms (1+2+4+8 s)');
            $this->assertSame([0, 1, 3, 7, 15], array_map(fn($t) => $t - $client->attempts[0], $client->attempts), 'attempt times');
        });
    }

    public function testGivesUpAfter31Seconds(): void
    {
        virtual_time(function () {
            $client = new RetryingClient(fn() => throw new RuntimeException('503 Service Unavailable'));
            $before = new DateTimeImmutable();
            try {
                $client->call();
                $this->assertTrue(false, 'call() should have thrown');
            } catch (RuntimeException $e) {
                $this->assertSame('gave up after 6 attempts', $e->getMessage());
            }
            $this->assertSame(31, (new DateTimeImmutable())->getTimestamp() - $before->getTimestamp(), 'virtual seconds');
        });
    }
}

if (!class_exists(PHPUnit\Framework\TestCase::class) || PHP_SAPI === 'cli' && realpath($argv[0] ?? '') === __FILE__) {
    $test = new RetryingClientTest('run');
    foreach (['testSucceedsAfterFourFailures', 'testGivesUpAfter31Seconds'] as $name) {
        $t = hrtime(true);
        $test->$name();
        printf("ok   %s (%.1f ms real)\n", $name, (hrtime(true) - $t) / 1e6);
    }
}
