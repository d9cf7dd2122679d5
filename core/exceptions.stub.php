<?php

/** @generate-class-entries */

namespace {

/** Declared only when the engine has no \Cancellation of its own (stock PHP 8.2). */
class Cancellation extends Error {}

}

namespace Async {

class AsyncCancellation extends \Cancellation {}

class OperationCanceledException extends AsyncCancellation {}

class DeadlockError extends \Error {}

class AsyncException extends \Exception {}

class ServiceUnavailableException extends AsyncException {}

class ChannelException extends AsyncException
{
    public ChannelCloseReason $reason;
}

class PoolException extends AsyncException {}

class ContextException extends AsyncException {}

class ThreadChannelException extends AsyncException {}

class RemoteException extends AsyncException
{
    private ?\Throwable $remoteException = null;
    private string $remoteClass = "";

    public function getRemoteException(): ?\Throwable {}

    public function getRemoteClass(): string {}
}

class ThreadTransferException extends AsyncException {}

class InputOutputException extends \Exception {}

class DnsException extends \Exception {}

class TimeoutException extends \Exception {}

class PollException extends \Exception {}

final class CompositeException extends \Exception
{
    private array $exceptions = [];

    public function addException(\Throwable $exception): void {}

    public function getExceptions(): array {}
}

class ThreadPoolException extends \Exception {}

}
