;; A request body checked as JSON over its bytes (framing/top-level-members.ts): one pass that
;; accepts what JSON.parse accepts after a UTF-8 decode (RFC 8259; a byte of 0x80 or more only
;; inside a string) and notes where the top-level members asked for sit. String contents, most
;; of a body, are scanned 16 bytes at a time.
;; Memory: a mark per open array or object at 0 (1 = object; MAX_DEPTH 1024); the keys asked
;; for at 1024 (at most 8: their byte lengths at 1024 + k, their bytes at 1040 + 64k); what was
;; found at 2048 (three i32 a key: how many times it occurs, then the last value's start and
;; end, offsets into the body); an 8-byte marker at 2400, and at 2408 an i32 set to 1 when the
;; body holds it (framing/top-level-members.ts: the state tokens the gateway writes); the body
;; from 4096, with 16 bytes of memory after it (read, never used). The same pass holds the body
;; to the JSON limits (framing/json-limits.ts): nesting depth and members plus elements. Each
;; skip of whitespace first looks at one byte: usually not whitespace, and a call costs more
;; than the look.
(module
  (memory (export "memory") 1)
  ;; where the last key `$member` read ends
  (global $keyEnd (mut i32) (i32.const 0))
  ;; the JSON limits: the deepest nesting allowed (the body's own value is depth 1), the depth
  ;; of `$value`'s level 0 (1 inside the top-level object), and how many more values may come
  (global $maxDepth (mut i32) (i32.const 0))
  (global $depthBase (mut i32) (i32.const 0))
  (global $valuesLeft (mut i32) (i32.const 0))
  ;; the marker's first two bytes, splat, and its eight bytes
  (global $marker0 (mut v128) (v128.const i64x2 0 0))
  (global $marker1 (mut v128) (v128.const i64x2 0 0))
  (global $marker (mut i64) (i64.const 0))

  ;; the marker starts at one of the 16 bytes at $p whose bits are set in $hits: note it
  (func $marks (param $p i32) (param $hits i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $hits)))
        (if (i64.eq (i64.load (i32.add (local.get $p) (i32.ctz (local.get $hits)))) (global.get $marker))
          (then
            (i32.store (i32.const 2408) (i32.const 1))
            (return)))
        (local.set $hits (i32.and (local.get $hits) (i32.sub (local.get $hits) (i32.const 1))))
        (br $next))))

  ;; past the whitespace at $p
  (func $ws (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $p) (local.get $end)))
        (local.set $c (i32.load8_u (local.get $p)))
        (br_if $done (i32.eqz (i32.or
          (i32.or (i32.eq (local.get $c) (i32.const 0x20)) (i32.eq (local.get $c) (i32.const 0x0a)))
          (i32.or (i32.eq (local.get $c) (i32.const 0x0d)) (i32.eq (local.get $c) (i32.const 0x09))))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  ;; a hex digit
  (func $hex (param $c i32) (result i32)
    (i32.or
      (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10))
      (i32.lt_u (i32.sub (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x61)) (i32.const 6))))

  ;; $p at a backslash inside a string: past its escape, or -1
  (func $escape (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (if (i32.ge_u (i32.add (local.get $p) (i32.const 1)) (local.get $end)) (then (return (i32.const -1))))
    (local.set $c (i32.load8_u offset=1 (local.get $p)))
    (if (i32.eq (local.get $c) (i32.const 0x75))
      (then
        (if (i32.gt_u (i32.add (local.get $p) (i32.const 6)) (local.get $end)) (then (return (i32.const -1))))
        (if (i32.and
              (i32.and (call $hex (i32.load8_u offset=2 (local.get $p))) (call $hex (i32.load8_u offset=3 (local.get $p))))
              (i32.and (call $hex (i32.load8_u offset=4 (local.get $p))) (call $hex (i32.load8_u offset=5 (local.get $p)))))
          (then (return (i32.add (local.get $p) (i32.const 6)))))
        (return (i32.const -1))))
    ;; " \ / b f n r t
    (if (i32.or
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 0x22)) (i32.eq (local.get $c) (i32.const 0x5c)))
            (i32.or (i32.eq (local.get $c) (i32.const 0x2f)) (i32.eq (local.get $c) (i32.const 0x62))))
          (i32.or
            (i32.or (i32.eq (local.get $c) (i32.const 0x66)) (i32.eq (local.get $c) (i32.const 0x6e)))
            (i32.or (i32.eq (local.get $c) (i32.const 0x72)) (i32.eq (local.get $c) (i32.const 0x74)))))
      (then (return (i32.add (local.get $p) (i32.const 2)))))
    (i32.const -1))

  ;; $p at an opening quote: past the closing one, or -1
  (func $str (param $p i32) (param $end i32) (result i32)
    (local $m i32) (local $c i32) (local $v v128)
    (local.set $p (i32.add (local.get $p) (i32.const 1)))
    (loop $scan
      ;; 16 bytes at a time, up to a quote, a backslash or a control character
      (block $stop
        (loop $blocks
          (br_if $stop (i32.gt_u (i32.add (local.get $p) (i32.const 16)) (local.get $end)))
          (local.set $v (v128.load (local.get $p)))
          ;; the marker's first two bytes anywhere in these 16 (the second may be the 17th)
          (if (v128.any_true (v128.and
                (i8x16.eq (local.get $v) (global.get $marker0))
                (i8x16.eq (v128.load offset=1 (local.get $p)) (global.get $marker1))))
            (then (call $marks (local.get $p) (i8x16.bitmask (v128.and
                (i8x16.eq (local.get $v) (global.get $marker0))
                (i8x16.eq (v128.load offset=1 (local.get $p)) (global.get $marker1)))))))
          (local.set $m (i8x16.bitmask (v128.or
            (v128.or
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x22)))
              (i8x16.eq (local.get $v) (i8x16.splat (i32.const 0x5c))))
            (i8x16.lt_u (local.get $v) (i8x16.splat (i32.const 0x20))))))
          (if (local.get $m)
            (then
              (local.set $p (i32.add (local.get $p) (i32.ctz (local.get $m))))
              (br $stop)))
          (local.set $p (i32.add (local.get $p) (i32.const 16)))
          (br $blocks)))
      ;; byte by byte from the stop found, or through the last bytes
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 0x22)) (then (return (i32.add (local.get $p) (i32.const 1)))))
      (if (i32.eq (local.get $c) (i32.const 0x5c))
        (then
          (local.set $p (call $escape (local.get $p) (local.get $end)))
          (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
          (br $scan)))
      (if (i32.lt_u (local.get $c) (i32.const 0x20)) (then (return (i32.const -1))))
      (if (i64.eq (i64.load (local.get $p)) (global.get $marker)) (then (i32.store (i32.const 2408) (i32.const 1))))
      (local.set $p (i32.add (local.get $p) (i32.const 1)))
      (br $scan))
    (unreachable))

  ;; a digit at $p
  (func $digit (param $p i32) (param $end i32) (result i32)
    (i32.and
      (i32.lt_u (local.get $p) (local.get $end))
      (i32.lt_u (i32.sub (i32.load8_u (local.get $p)) (i32.const 0x30)) (i32.const 10))))

  ;; past the digits at $p
  (func $digits (param $p i32) (param $end i32) (result i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (call $digit (local.get $p) (local.get $end))))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $next)))
    (local.get $p))

  ;; $p at a number's first byte: past it, or -1 (-?(0|[1-9]d*)(.d+)?([eE][+-]?d+)?)
  (func $num (param $p i32) (param $end i32) (result i32)
    (local $c i32)
    (if (i32.and (i32.lt_u (local.get $p) (local.get $end)) (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x2d)))
      (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
    (if (i32.eqz (call $digit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
    (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x30))
      (then (local.set $p (i32.add (local.get $p) (i32.const 1))))
      (else (local.set $p (call $digits (local.get $p) (local.get $end)))))
    (if (i32.and (i32.lt_u (local.get $p) (local.get $end)) (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x2e)))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if (i32.eqz (call $digit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
        (local.set $p (call $digits (local.get $p) (local.get $end)))))
    (if (i32.and (i32.lt_u (local.get $p) (local.get $end)) (i32.eq (i32.or (i32.load8_u (local.get $p)) (i32.const 0x20)) (i32.const 0x65)))
      (then
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (if (i32.lt_u (local.get $p) (local.get $end))
          (then
            (local.set $c (i32.load8_u (local.get $p)))
            (if (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
              (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))))
        (if (i32.eqz (call $digit (local.get $p) (local.get $end))) (then (return (i32.const -1))))
        (local.set $p (call $digits (local.get $p) (local.get $end)))))
    (local.get $p))

  ;; $p at a `t`, `f` or `n`: past true, false or null, or -1 (four bytes read as one
  ;; little-endian word)
  (func $lit (param $p i32) (param $end i32) (result i32)
    (local $w i32)
    (if (i32.gt_u (i32.add (local.get $p) (i32.const 4)) (local.get $end)) (then (return (i32.const -1))))
    (local.set $w (i32.load (local.get $p)))
    (if (i32.or (i32.eq (local.get $w) (i32.const 0x65757274)) (i32.eq (local.get $w) (i32.const 0x6c6c756e)))
      (then (return (i32.add (local.get $p) (i32.const 4)))))
    (if (i32.and
          (i32.eq (local.get $w) (i32.const 0x736c6166))
          (i32.and (i32.lt_u (i32.add (local.get $p) (i32.const 4)) (local.get $end)) (i32.eq (i32.load8_u offset=4 (local.get $p)) (i32.const 0x65))))
      (then (return (i32.add (local.get $p) (i32.const 5)))))
    (i32.const -1))

  ;; $p at a member's key: its value's first byte (the key's end in $keyEnd), or -1
  (func $member (param $p i32) (param $end i32) (result i32)
    (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 0x22)))
      (then (return (i32.const -1))))
    (local.set $p (call $str (local.get $p) (local.get $end)))
    (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
    (global.set $keyEnd (local.get $p))
    (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (local.get $p)) (i32.const 0x20)) (then (local.get $p)) (else (call $ws (local.get $p) (local.get $end)))))
    (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 0x3a)))
      (then (return (i32.const -1))))
    (if (result i32) (i32.gt_u (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (then (i32.add (local.get $p) (i32.const 1))) (else (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))

  ;; $p at a value's first byte (or at $end): past the value; -1 when it is not JSON, -2 when
  ;; it nests deeper than MAX_DEPTH, -3 when it goes past a JSON limit. Iterative: the marks in
  ;; memory say what encloses each level.
  (func $value (param $p i32) (param $end i32) (result i32)
    (local $depth i32) (local $c i32) (local $obj i32)
    (loop $value
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
      ;; every value but the body's own is a member or an element
      (global.set $valuesLeft (i32.sub (global.get $valuesLeft) (i32.const 1)))
      (if (i32.lt_s (global.get $valuesLeft) (i32.const 0)) (then (return (i32.const -3))))
      (local.set $c (i32.load8_u (local.get $p)))
      (block $after
        (if (i32.eq (local.get $c) (i32.const 0x22))
          (then
            (local.set $p (call $str (local.get $p) (local.get $end)))
            (br $after)))
        ;; { or [ (only these two are 0x7b with the 0x20 bit set)
        (if (i32.eq (i32.or (local.get $c) (i32.const 0x20)) (i32.const 0x7b))
          (then
            (if (i32.gt_u (i32.add (i32.add (global.get $depthBase) (local.get $depth)) (i32.const 1)) (global.get $maxDepth))
              (then (return (i32.const -3))))
            (local.set $obj (i32.eq (local.get $c) (i32.const 0x7b)))
            (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (then (i32.add (local.get $p) (i32.const 1))) (else (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))
            ;; } and ] are their openers plus 2
            (if (i32.and (i32.lt_u (local.get $p) (local.get $end)) (i32.eq (i32.load8_u (local.get $p)) (i32.add (local.get $c) (i32.const 2))))
              (then
                (local.set $p (i32.add (local.get $p) (i32.const 1)))
                (br $after)))
            (if (i32.eq (local.get $depth) (i32.const 1024)) (then (return (i32.const -2))))
            (i32.store8 (local.get $depth) (local.get $obj))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (if (local.get $obj)
              (then
                (local.set $p (call $member (local.get $p) (local.get $end)))
                (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))))
            (br $value)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x74)) (i32.or (i32.eq (local.get $c) (i32.const 0x66)) (i32.eq (local.get $c) (i32.const 0x6e))))
          (then
            (local.set $p (call $lit (local.get $p) (local.get $end)))
            (br $after)))
        (local.set $p (call $num (local.get $p) (local.get $end))))
      ;; after a value: close what it ends, then the next element or member, or done
      (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))
      (loop $close
        (if (i32.eqz (local.get $depth)) (then (return (local.get $p))))
        (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (local.get $p)) (i32.const 0x20)) (then (local.get $p)) (else (call $ws (local.get $p) (local.get $end)))))
        (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const -1))))
        (local.set $c (i32.load8_u (local.get $p)))
        (local.set $obj (i32.load8_u (i32.sub (local.get $depth) (i32.const 1))))
        (if (i32.eq (local.get $c) (i32.const 0x2c))
          (then
            (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (then (i32.add (local.get $p) (i32.const 1))) (else (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))
            (if (local.get $obj)
              (then
                (local.set $p (call $member (local.get $p) (local.get $end)))
                (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const -1))))))
            (br $value)))
        (if (i32.ne (local.get $c) (select (i32.const 0x7d) (i32.const 0x5d) (local.get $obj))) (then (return (i32.const -1))))
        (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
        (local.set $p (i32.add (local.get $p) (i32.const 1)))
        (br $close)))
    (unreachable))

  ;; past the whitespace at $p, only to the end: 1 when nothing but whitespace is left
  (func $rest (param $p i32) (param $end i32) (result i32)
    (i32.eq (if (result i32) (i32.gt_u (i32.load8_u (local.get $p)) (i32.const 0x20)) (then (local.get $p)) (else (call $ws (local.get $p) (local.get $end)))) (local.get $end)))

  ;; the bytes [$a, $a + $n) hold no backslash
  (func $plain (param $a i32) (param $n i32) (result i32)
    (block $done
      (loop $next
        (br_if $done (i32.eqz (local.get $n)))
        (if (i32.eq (i32.load8_u (local.get $a)) (i32.const 0x5c)) (then (return (i32.const 0))))
        (local.set $a (i32.add (local.get $a) (i32.const 1)))
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br $next)))
    (i32.const 1))

  ;; which of the $keys keys asked for the key text [$a, $a + $n) is (no escape in it), or -1
  (func $wanted (param $a i32) (param $n i32) (param $keys i32) (result i32)
    (local $k i32) (local $i i32) (local $at i32)
    (block $none
      (loop $key
        (br_if $none (i32.ge_u (local.get $k) (local.get $keys)))
        (block $other
          (br_if $other (i32.ne (i32.load8_u offset=1024 (local.get $k)) (local.get $n)))
          (local.set $at (i32.add (i32.const 1040) (i32.shl (local.get $k) (i32.const 6))))
          (local.set $i (i32.const 0))
          (loop $byte
            (if (i32.ge_u (local.get $i) (local.get $n)) (then (return (local.get $k))))
            (br_if $other (i32.ne (i32.load8_u (i32.add (local.get $a) (local.get $i))) (i32.load8_u (i32.add (local.get $at) (local.get $i)))))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (br $byte)))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $key)))
    (i32.const -1))

  ;; The $n bytes at 4096: 0 when they are a JSON object (what was found of the $keys keys
  ;; asked for at 2048) within the limits, 1 when they are not JSON, 2 when JSON but not an
  ;; object, 3 when they nest deeper than this module tracks or a top-level key holds an escape
  ;; (that might spell a key asked for), 4 when they nest deeper than $maxDepth or hold more
  ;; than $maxMembers members and elements (the first of these found: the body after it is not
  ;; read).
  (func (export "read") (param $n i32) (param $keys i32) (param $maxDepth i32) (param $maxMembers i32) (result i32)
    (local $p i32) (local $end i32) (local $key i32) (local $keyEnd i32) (local $v i32) (local $c i32) (local $k i32) (local $out i32)
    (local.set $end (i32.add (i32.const 4096) (local.get $n)))
    (if (i32.lt_s (local.get $maxDepth) (i32.const 1)) (then (return (i32.const 4))))
    (global.set $maxDepth (local.get $maxDepth))
    (global.set $valuesLeft (local.get $maxMembers))
    (global.set $depthBase (i32.const 1))
    (global.set $marker0 (i8x16.splat (i32.load8_u (i32.const 2400))))
    (global.set $marker1 (i8x16.splat (i32.load8_u (i32.const 2401))))
    (global.set $marker (i64.load (i32.const 2400)))
    (i32.store (i32.const 2408) (i32.const 0))
    (local.set $k (i32.const 0))
    (block $cleared
      (loop $clear
        (br_if $cleared (i32.ge_u (local.get $k) (local.get $keys)))
        (i32.store offset=2048 (i32.mul (local.get $k) (i32.const 12)) (i32.const 0))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $clear)))
    (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (i32.const 4096)) (i32.const 0x20)) (then (i32.const 4096)) (else (call $ws (i32.const 4096) (local.get $end)))))
    (if (i32.or (i32.ge_u (local.get $p) (local.get $end)) (i32.ne (i32.load8_u (local.get $p)) (i32.const 0x7b)))
      (then
        ;; the body's own value goes through $value too: it is neither member nor element
        (global.set $depthBase (i32.const 0))
        (global.set $valuesLeft (i32.add (local.get $maxMembers) (i32.const 1)))
        (local.set $p (call $value (local.get $p) (local.get $end)))
        (if (i32.eq (local.get $p) (i32.const -2)) (then (return (i32.const 3))))
        (if (i32.eq (local.get $p) (i32.const -3)) (then (return (i32.const 4))))
        (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 1))))
        (return (select (i32.const 2) (i32.const 1) (call $rest (local.get $p) (local.get $end))))))
    (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (then (i32.add (local.get $p) (i32.const 1))) (else (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))
    (if (i32.and (i32.lt_u (local.get $p) (local.get $end)) (i32.eq (i32.load8_u (local.get $p)) (i32.const 0x7d)))
      (then (return (select (i32.const 0) (i32.const 1) (call $rest (i32.add (local.get $p) (i32.const 1)) (local.get $end))))))
    (loop $next
      (local.set $key (local.get $p))
      (local.set $v (call $member (local.get $p) (local.get $end)))
      (if (i32.lt_s (local.get $v) (i32.const 0)) (then (return (i32.const 1))))
      ;; the key's text, between its quotes (kept before the value's own members move $keyEnd)
      (local.set $key (i32.add (local.get $key) (i32.const 1)))
      (local.set $keyEnd (i32.sub (global.get $keyEnd) (i32.const 1)))
      (local.set $p (call $value (local.get $v) (local.get $end)))
      (if (i32.eq (local.get $p) (i32.const -2)) (then (return (i32.const 3))))
      (if (i32.eq (local.get $p) (i32.const -3)) (then (return (i32.const 4))))
      (if (i32.lt_s (local.get $p) (i32.const 0)) (then (return (i32.const 1))))
      (if (i32.eqz (call $plain (local.get $key) (i32.sub (local.get $keyEnd) (local.get $key)))) (then (return (i32.const 3))))
      (local.set $k (call $wanted (local.get $key) (i32.sub (local.get $keyEnd) (local.get $key)) (local.get $keys)))
      (if (i32.ge_s (local.get $k) (i32.const 0))
        (then
          (local.set $out (i32.add (i32.const 2048) (i32.mul (local.get $k) (i32.const 12))))
          (i32.store (local.get $out) (i32.add (i32.load (local.get $out)) (i32.const 1)))
          (i32.store offset=4 (local.get $out) (i32.sub (local.get $v) (i32.const 4096)))
          (i32.store offset=8 (local.get $out) (i32.sub (local.get $p) (i32.const 4096)))))
      (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (local.get $p)) (i32.const 0x20)) (then (local.get $p)) (else (call $ws (local.get $p) (local.get $end)))))
      (if (i32.ge_u (local.get $p) (local.get $end)) (then (return (i32.const 1))))
      (local.set $c (i32.load8_u (local.get $p)))
      (if (i32.eq (local.get $c) (i32.const 0x2c))
        (then
          (local.set $p (if (result i32) (i32.gt_u (i32.load8_u (i32.add (local.get $p) (i32.const 1))) (i32.const 0x20)) (then (i32.add (local.get $p) (i32.const 1))) (else (call $ws (i32.add (local.get $p) (i32.const 1)) (local.get $end)))))
          (br $next)))
      (if (i32.ne (local.get $c) (i32.const 0x7d)) (then (return (i32.const 1)))))
    (select (i32.const 0) (i32.const 1) (call $rest (i32.add (local.get $p) (i32.const 1)) (local.get $end))))
)
