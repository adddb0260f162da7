;; Runs of text deltas over bytes (fast-path/text-run.ts). Memory: the decoder's event head at
;; 0 and tail at 1024, the encoder's bytes before and after a delta's literal at 2048 and 3072
;; (each at most 1024 bytes), the upstream's events from 4096, the output after them (and, when
;; asked, the literals' contents after that).
(module
  (memory (export "memory") 4)
  ;; where `run` stopped writing (with $write), and how many events it read
  (global $outEnd (export "outEnd") (mut i32) (i32.const 0))
  (global $events (export "events") (mut i32) (i32.const 0))
  ;; (set before a write) where in the bytes before a literal each event's sequence number goes,
  ;; 0 for none; the next number, counted up per event written
  (global $seqAt (export "seqAt") (mut i32) (i32.const 0))
  (global $seq (export "seq") (mut i32) (i32.const 0))
  ;; (set before a write) where each literal's contents, quotes aside, are copied one after
  ;; another, 0 for nowhere; where they end after it
  (global $textAt (export "textAt") (mut i32) (i32.const 0))
;; `$a` and `$b` hold the same `$n` bytes: 16 at a time, the last 16 overlapping the block
  ;; before them (a short text byte by byte)
  (func $eq (param $a i32) (param $b i32) (param $n i32) (result i32)
    (local $i i32)
    (if (i32.lt_u (local.get $n) (i32.const 16))
      (then
        (block $end
          (loop $bytes
            (br_if $end (i32.eqz (local.get $n)))
            (if (i32.ne (i32.load8_u (local.get $a)) (i32.load8_u (local.get $b))) (then (return (i32.const 0))))
            (local.set $a (i32.add (local.get $a) (i32.const 1)))
            (local.set $b (i32.add (local.get $b) (i32.const 1)))
            (local.set $n (i32.sub (local.get $n) (i32.const 1)))
            (br $bytes)))
        (return (i32.const 1))))
    (local.set $n (i32.sub (local.get $n) (i32.const 16)))
    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (if (i32.eqz (i8x16.all_true (i8x16.eq (v128.load (i32.add (local.get $a) (local.get $i))) (v128.load (i32.add (local.get $b) (local.get $i))))))
          (then (return (i32.const 0))))
        (local.set $i (i32.add (local.get $i) (i32.const 16)))
        (br $blocks)))
    (i8x16.all_true (i8x16.eq (v128.load (i32.add (local.get $a) (local.get $n))) (v128.load (i32.add (local.get $b) (local.get $n))))))
  ;; the closing quote of the string opened at $q when it holds only printable ASCII other
  ;; than a backslash (JSON.stringify's bytes for its text), else -1
  (func $litEnd (param $q i32) (param $end i32) (result i32)
    (local $pos i32) (local $m i32) (local $c i32)
    (local.set $pos (i32.add (local.get $q) (i32.const 1)))
    (block $tail
      (loop $blocks
        (br_if $tail (i32.gt_u (i32.add (local.get $pos) (i32.const 16)) (local.get $end)))
        (local.set $m (i8x16.bitmask
          (v128.or
            (v128.or
              (i8x16.eq (v128.load (local.get $pos)) (i8x16.splat (i32.const 0x22)))
              (i8x16.eq (v128.load (local.get $pos)) (i8x16.splat (i32.const 0x5c))))
            (i8x16.lt_s (v128.load (local.get $pos)) (i8x16.splat (i32.const 0x20))))))
        (if (local.get $m)
          (then
            (local.set $pos (i32.add (local.get $pos) (i32.ctz (local.get $m))))
            (return (select (local.get $pos) (i32.const -1) (i32.eq (i32.load8_u (local.get $pos)) (i32.const 0x22))))))
        (local.set $pos (i32.add (local.get $pos) (i32.const 16)))
        (br $blocks)))
    (loop $bytes
      (if (i32.ge_u (local.get $pos) (local.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $pos)))
      (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (local.get $pos))))
      (if (i32.or (i32.or (i32.eq (local.get $c) (i32.const 0x5c)) (i32.lt_u (local.get $c) (i32.const 0x20))) (i32.ge_u (local.get $c) (i32.const 0x80)))
        (then (return (i32.const -1))))
      (local.set $pos (i32.add (local.get $pos) (i32.const 1)))
      (br $bytes))
    (i32.const -1))
  ;; the length of the JSON integer at $at (`0`, or digits not starting with 0; no sign, no
  ;; fraction), 0 when there is none before $end
  (func $integerLength (param $at i32) (param $end i32) (result i32)
    (local $i i32) (local $c i32)
    (if (i32.ge_u (local.get $at) (local.get $end)) (then (return (i32.const 0))))
    (local.set $c (i32.load8_u (local.get $at)))
    (if (i32.eq (local.get $c) (i32.const 0x30)) (then (return (i32.const 1))))
    (if (i32.gt_u (i32.sub (local.get $c) (i32.const 0x31)) (i32.const 8)) (then (return (i32.const 0))))
    (local.set $i (i32.const 1))
    (block $done
      (loop $digits
        (br_if $done (i32.ge_u (i32.add (local.get $at) (local.get $i)) (local.get $end)))
        (br_if $done (i32.gt_u (i32.sub (i32.load8_u (i32.add (local.get $at) (local.get $i))) (i32.const 0x30)) (i32.const 9)))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (br $digits)))
    (local.get $i))
  ;; $v (unsigned) in decimal at $o; returns the end
  (func $decimal (param $o i32) (param $v i32) (result i32)
    (local $t i32) (local $end i32)
    (local.set $end (i32.add (local.get $o) (i32.const 1)))
    (local.set $t (local.get $v))
    (block $counted
      (loop $count
        (br_if $counted (i32.lt_u (local.get $t) (i32.const 10)))
        (local.set $t (i32.div_u (local.get $t) (i32.const 10)))
        (local.set $end (i32.add (local.get $end) (i32.const 1)))
        (br $count)))
    (local.set $t (local.get $end))
    (loop $digits
      (local.set $t (i32.sub (local.get $t) (i32.const 1)))
      (i32.store8 (local.get $t) (i32.add (i32.const 0x30) (i32.rem_u (local.get $v) (i32.const 10))))
      (local.set $v (i32.div_u (local.get $v) (i32.const 10)))
      (br_if $digits (i32.gt_u (local.get $t) (local.get $o))))
    (local.get $end))
  ;; Reads events `head "literal" tail` back to back from $p, stopping before $inEnd or the
  ;; first other one. With $slot > 0 the head holds a JSON integer that changes per event (a
  ;; sequence number) after its first $slot bytes: the head's text is then compared around it.
  ;; With $write (over a run read before: heads and tails are not compared again), writes
  ;; `before "literal" after` for each from $o (a sequence number inside `before` when $seqAt
  ;; says where, the literal's contents also at $textAt when set), stopping where $oLimit would
  ;; be passed (counting 10 bytes for a number). Returns
  ;; where it stopped reading.
  (func (export "run") (param $p i32) (param $inEnd i32) (param $o i32) (param $oLimit i32)
        (param $pLen i32) (param $sLen i32) (param $t1Len i32) (param $t2Len i32) (param $write i32) (param $slot i32) (result i32)
    (local $q i32) (local $r i32) (local $e i32) (local $lit i32) (local $n i32) (local $d i32)
    (block $stop
      (loop $event
        (local.set $d (i32.const 0))
        (if (local.get $slot)
          (then
            (local.set $d (call $integerLength (i32.add (local.get $p) (local.get $slot)) (local.get $inEnd)))
            (br_if $stop (i32.eqz (local.get $d)))))
        (br_if $stop (i32.gt_u (i32.add (i32.add (local.get $p) (i32.add (local.get $pLen) (local.get $d))) (i32.add (local.get $sLen) (i32.const 3))) (local.get $inEnd)))
        ;; (with $write the run was measured: its heads and tails are not compared again)
        (if (i32.eqz (local.get $write))
          (then
            (if (local.get $slot)
              (then
                (br_if $stop (i32.eqz (call $eq (local.get $p) (i32.const 0) (local.get $slot))))
                (br_if $stop (i32.eqz (call $eq (i32.add (i32.add (local.get $p) (local.get $slot)) (local.get $d)) (local.get $slot) (i32.sub (local.get $pLen) (local.get $slot))))))
              (else (br_if $stop (i32.eqz (call $eq (local.get $p) (i32.const 0) (local.get $pLen))))))))
        (local.set $q (i32.add (i32.add (local.get $p) (local.get $pLen)) (local.get $d)))
        (br_if $stop (i32.ne (i32.load8_u (local.get $q)) (i32.const 0x22)))
        (local.set $r (call $litEnd (local.get $q) (local.get $inEnd)))
        (br_if $stop (i32.lt_s (local.get $r) (i32.const 0)))
        (br_if $stop (i32.eq (local.get $r) (i32.add (local.get $q) (i32.const 1))))
        (local.set $e (i32.add (i32.add (local.get $r) (i32.const 1)) (local.get $sLen)))
        (br_if $stop (i32.gt_u (local.get $e) (local.get $inEnd)))
        (if (i32.eqz (local.get $write))
          (then (br_if $stop (i32.eqz (call $eq (i32.add (local.get $r) (i32.const 1)) (i32.const 1024) (local.get $sLen))))))
        (if (local.get $write)
          (then
            (local.set $lit (i32.sub (i32.add (local.get $r) (i32.const 1)) (local.get $q)))
            (br_if $stop (i32.gt_u
              (i32.add (i32.add (local.get $o) (local.get $lit)) (i32.add (i32.add (local.get $t1Len) (local.get $t2Len)) (select (i32.const 10) (i32.const 0) (global.get $seqAt))))
              (local.get $oLimit)))
            (if (global.get $seqAt)
              (then
                (memory.copy (local.get $o) (i32.const 2048) (global.get $seqAt))
                (local.set $o (call $decimal (i32.add (local.get $o) (global.get $seqAt)) (global.get $seq)))
                (global.set $seq (i32.add (global.get $seq) (i32.const 1)))
                (memory.copy (local.get $o) (i32.add (i32.const 2048) (global.get $seqAt)) (i32.sub (local.get $t1Len) (global.get $seqAt)))
                (local.set $o (i32.add (local.get $o) (i32.sub (local.get $t1Len) (global.get $seqAt)))))
              (else
                (memory.copy (local.get $o) (i32.const 2048) (local.get $t1Len))
                (local.set $o (i32.add (local.get $o) (local.get $t1Len)))))
            (if (global.get $textAt)
              (then
                (memory.copy (global.get $textAt) (i32.add (local.get $q) (i32.const 1)) (i32.sub (local.get $lit) (i32.const 2)))
                (global.set $textAt (i32.add (global.get $textAt) (i32.sub (local.get $lit) (i32.const 2))))))
            (memory.copy (local.get $o) (local.get $q) (local.get $lit))
            (local.set $o (i32.add (local.get $o) (local.get $lit)))
            (memory.copy (local.get $o) (i32.const 3072) (local.get $t2Len))
            (local.set $o (i32.add (local.get $o) (local.get $t2Len)))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (local.set $p (local.get $e))
        (br $event)))
    (global.set $outEnd (local.get $o))
    (global.set $events (local.get $n))
    (local.get $p))
)
