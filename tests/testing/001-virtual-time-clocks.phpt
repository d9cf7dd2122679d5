--TEST--
virtual_time(): an hour of delay() passes at once, and time(), microtime(), hrtime(), gettimeofday(), date(), DateTime agree with it; sleep()/usleep()/time_nanosleep()/time_sleep_until() too; real time outside is untouched
--SKIPIF--
<?php if (!extension_loaded('async')) die('skip async not loaded'); ?>
--INI--
pcre.jit=0
--FILE--
<?php
use function Async\{spawn, await, delay};
use function Async\Testing\virtual_time;

$real0 = hrtime(true);
$wall0 = microtime(true);
$r = virtual_time(function (int $hours) {
    $t0 = microtime(true); $m0 = microtime(); $h0 = hrtime(true); $hr0 = hrtime(); $s0 = time();
    $g0 = gettimeofday(); $gf0 = gettimeofday(true);
    $d0 = new DateTime(); $i0 = new DateTimeImmutable('now'); $c0 = date_create(''); $ci0 = date_create_immutable();
    delay($hours * 3600 * 1000);
    $out = [];
    $out['microtime(true)'] = round(microtime(true) - $t0, 6);
    [$usec, $sec] = explode(' ', microtime());
    [$usec0, $sec0] = explode(' ', $m0);
    $out['microtime()'] = round(($sec + $usec) - ($sec0 + $usec0), 6);
    $out['hrtime(true)'] = hrtime(true) - $h0;
    $out['hrtime()'] = (hrtime()[0] - $hr0[0]) * 1000000000 + (hrtime()[1] - $hr0[1]);
    $out['time()'] = time() - $s0;
    $g = gettimeofday();
    $out['gettimeofday()'] = ($g['sec'] - $g0['sec']) * 1000000 + ($g['usec'] - $g0['usec']);
    $out['gettimeofday(true)'] = round(gettimeofday(true) - $gf0, 6);
    $out['tz fields kept'] = isset($g['minuteswest'], $g['dsttime']);
    $out['DateTime'] = (new DateTime())->getTimestamp() - $d0->getTimestamp();
    $out['DateTimeImmutable'] = (new DateTimeImmutable())->getTimestamp() - $i0->getTimestamp();
    $out['date_create'] = date_create()->getTimestamp() - $c0->getTimestamp();
    $out['date_create_immutable'] = date_create_immutable('NOW')->getTimestamp() - $ci0->getTimestamp();
    $out['DateTime zone'] = (new DateTime('now', new DateTimeZone('Asia/Tokyo')))->getTimezone()->getName();
    $out['DateTime same instant'] = (new DateTime('now', new DateTimeZone('Asia/Tokyo')))->getTimestamp() === time();
    $out['microseconds kept'] = (new DateTime())->format('u') === sprintf('%06d', (int) round(fmod(microtime(true), 1) * 1e6));
    $out['date()'] = date('Y-m-d H:i:s') === date('Y-m-d H:i:s', time());
    $out['gmdate()'] = gmdate('H:i:s') === gmdate('H:i:s', time());
    $out['idate()'] = idate('U') === time();
    $out['getdate()'] = getdate()[0] === time();
    $out['localtime()'] = localtime() === localtime(time());
    $out['strtotime()'] = strtotime('+1 day') - time();
    $out['explicit timestamps are kept'] = date('Y', 0) === '1970' && (new DateTime('@0'))->getTimestamp() === 0;
    $s = time(); sleep(10); $out['sleep(10)'] = time() - $s;
    $h = hrtime(true); usleep(2500); $out['usleep(2500)'] = hrtime(true) - $h;
    $h = hrtime(true); time_nanosleep(1, 5); $out['time_nanosleep(1, 5)'] = hrtime(true) - $h;
    $until = microtime(true) + 7.25;
    time_sleep_until($until); $out['time_sleep_until(+7.25)'] = abs(microtime(true) - $until) < 0.000002;
    return $out;
}, 1);
foreach ($r as $k => $v) {
    echo str_pad($k, 32), var_export($v, true), "\n";
}
$real = (hrtime(true) - $real0) / 1e6;
echo "real time taken < 2 s: ", var_export($real < 2000, true), "\n";
echo "real clock outside went on: ", var_export(abs(microtime(true) - $wall0 - $real / 1000) < 0.5, true), "\n";
?>
--EXPECT--
microtime(true)                 3600.0
microtime()                     3600.0
hrtime(true)                    3600000000000
hrtime()                        3600000000000
time()                          3600
gettimeofday()                  3600000000
gettimeofday(true)              3600.0
tz fields kept                  true
DateTime                        3600
DateTimeImmutable               3600
date_create                     3600
date_create_immutable           3600
DateTime zone                   'Asia/Tokyo'
DateTime same instant           true
microseconds kept               true
date()                          true
gmdate()                        true
idate()                         true
getdate()                       true
localtime()                     true
strtotime()                     86400
explicit timestamps are kept    true
sleep(10)                       10
usleep(2500)                    2500000
time_nanosleep(1, 5)            1000000005
time_sleep_until(+7.25)         true
real time taken < 2 s: true
real clock outside went on: true
