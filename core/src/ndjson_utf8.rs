//! Checking that text is UTF-8 with AVX2, without a branch per block.
//!
//! `stream` writes every byte of prose into a text record, and a record's
//! bytes must be UTF-8 (else they are written lossily). `simdutf8` checks
//! them fast but skips each 64-byte block that is all ASCII with a branch:
//! on prose where a third of the lines hold a `°` or `—`, that branch goes
//! either way at random and its mispredictions cost more than the check
//! (on the transcript's text records, twice the time of checking every
//! block). Here the skip is taken per 256 bytes, which on such prose is
//! nearly never, and on ASCII text nearly always: both predictable.
//!
//! The check is the nibble-lookup method of Keiser and Lemire ("Validating
//! UTF-8 in less than one instruction per byte", 2021): each byte is
//! classified together with the byte before it by three 16-entry tables
//! (the high and low nibble of the previous byte, the high nibble of this
//! one) whose entries are bit sets of the errors the pair can show; their
//! AND is non-zero where the pair is an error. A continuation that must
//! follow a continuation (the third and fourth bytes of three- and
//! four-byte characters) is told by the bytes two and three back. Errors
//! are OR-ed together and looked at once, at the end.

use core::arch::x86_64::__m256i;
use pulp::x86::V3;

/// The 16-entry table in both 128-bit lanes (`vpshufb` looks up per lane).
const fn lanes(t: [u8; 16]) -> [u8; 32] {
    let mut out = [0u8; 32];
    let mut i = 0;
    while i < 16 {
        out[i] = t[i];
        out[i + 16] = t[i];
        i += 1;
    }
    out
}

// The errors a pair (previous byte, this byte) can show, one bit each.
/// A lead byte not followed by a continuation.
const TOO_SHORT: u8 = 0x01;
/// A continuation after an ASCII byte.
const TOO_LONG: u8 = 0x02;
/// `E0` followed by `80..9F` (an overlong three-byte form).
const OVERLONG_3: u8 = 0x04;
/// `F4` followed by `90..BF`, or `F5..FF` followed by `90..BF`: past U+10FFFF.
const TOO_LARGE: u8 = 0x08;
/// `ED` followed by `A0..BF` (a UTF-16 surrogate).
const SURROGATE: u8 = 0x10;
/// `C0` or `C1` followed by a continuation (an overlong two-byte form).
const OVERLONG_2: u8 = 0x20;
/// `F0` followed by `80..8F` (overlong), or `F5..FF` followed by `80..8F`.
const OVERLONG_4: u8 = 0x40;
/// Two continuations in a row: an error unless the bytes before ask for it.
const TWO_CONTS: u8 = 0x80;

/// By the previous byte's high nibble.
const PREV_HIGH: [u8; 32] = lanes([
    // 0xxx: ASCII
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    TOO_LONG,
    // 10xx: continuation
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    TWO_CONTS,
    // 1100, 1101: two-byte leads
    TOO_SHORT | OVERLONG_2,
    TOO_SHORT,
    // 1110: three-byte leads
    TOO_SHORT | OVERLONG_3 | SURROGATE,
    // 1111: four-byte leads and bytes that lead nothing
    TOO_SHORT | TOO_LARGE | OVERLONG_4,
]);

/// The errors that hold whatever the previous byte's low nibble.
const ANY_LOW: u8 = TOO_SHORT | TOO_LONG | TWO_CONTS;
/// The errors past U+10FFFF (`F4` and above) and the overlong four-byte
/// form (`F0`) share a bit: both are told by the low nibble of an `Fx`.
const ABOVE_F4: u8 = ANY_LOW | TOO_LARGE | OVERLONG_4;

/// By the previous byte's low nibble.
const PREV_LOW: [u8; 32] = lanes([
    ANY_LOW | OVERLONG_2 | OVERLONG_3 | OVERLONG_4,
    ANY_LOW | OVERLONG_2,
    ANY_LOW,
    ANY_LOW,
    ANY_LOW | TOO_LARGE,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4,
    ABOVE_F4 | SURROGATE,
    ABOVE_F4,
    ABOVE_F4,
]);

/// A continuation's errors whatever its low bits.
const CONT: u8 = TOO_LONG | TWO_CONTS | OVERLONG_2;

/// By this byte's high nibble.
const CUR_HIGH: [u8; 32] = lanes([
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    // 1000
    CONT | OVERLONG_3 | OVERLONG_4,
    // 1001
    CONT | OVERLONG_3 | TOO_LARGE,
    // 1010, 1011
    CONT | SURROGATE | TOO_LARGE,
    CONT | SURROGATE | TOO_LARGE,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
    TOO_SHORT,
]);

/// ORs into `err` the errors of the 32 bytes `cur`, `prev` being the 32
/// before them.
#[inline(always)]
fn check(simd: V3, cur: __m256i, prev: __m256i, err: __m256i) -> __m256i {
    let (a, x) = (simd.avx2, simd.avx);
    // [prev's high lane, cur's low lane]: the bytes before each of cur's
    // lanes, for the per-lane byte shifts
    let before = a._mm256_permute2x128_si256::<0x21>(prev, cur);
    let prev1 = a._mm256_alignr_epi8::<15>(cur, before);
    let prev2 = a._mm256_alignr_epi8::<14>(cur, before);
    let prev3 = a._mm256_alignr_epi8::<13>(cur, before);
    let nibble = x._mm256_set1_epi8(0x0f);
    let prev_high = a._mm256_and_si256(a._mm256_srli_epi16::<4>(prev1), nibble);
    let prev_low = a._mm256_and_si256(prev1, nibble);
    let cur_high = a._mm256_and_si256(a._mm256_srli_epi16::<4>(cur), nibble);
    let pair = a._mm256_and_si256(
        a._mm256_and_si256(
            a._mm256_shuffle_epi8(pulp::cast(PREV_HIGH), prev_high),
            a._mm256_shuffle_epi8(pulp::cast(PREV_LOW), prev_low),
        ),
        a._mm256_shuffle_epi8(pulp::cast(CUR_HIGH), cur_high),
    );
    // 0x80 where two bytes back is a three- or four-byte lead (E0 and
    // above) or three back a four-byte lead (F0 and above): saturating
    // subtraction leaves the top bit set exactly then
    let third = a._mm256_subs_epu8(prev2, x._mm256_set1_epi8(0x60));
    let fourth = a._mm256_subs_epu8(prev3, x._mm256_set1_epi8(0x70));
    let must = a._mm256_and_si256(
        a._mm256_or_si256(third, fourth),
        x._mm256_set1_epi8(i8::MIN),
    );
    a._mm256_or_si256(err, a._mm256_xor_si256(pair, must))
}

/// [`valid`]'s loop, run by `pulp` with AVX2 enabled.
struct Validate<'a>(V3, &'a [u8]);

impl pulp::NullaryFnOnce for Validate<'_> {
    type Output = bool;

    #[inline(always)]
    fn call(self) -> bool {
        let Validate(simd, bytes) = self;
        let zero: __m256i = pulp::cast([0u8; 32]);
        let mut prev = zero;
        let mut err = zero;
        let (groups, rest) = bytes.as_chunks::<256>();
        for group in groups {
            let (blocks, _) = group.as_chunks::<32>();
            let any = blocks.iter().fold(zero, |any, b| {
                simd.avx2._mm256_or_si256(any, pulp::cast(*b))
            });
            if simd.avx2._mm256_movemask_epi8(any) == 0 {
                // all ASCII: only a character left open before it is an
                // error (ASCII bytes look alike to the check)
                err = check(simd, zero, prev, err);
                prev = zero;
                continue;
            }
            for block in blocks {
                let cur = pulp::cast(*block);
                err = check(simd, cur, prev, err);
                prev = cur;
            }
        }
        let (blocks, tail) = rest.as_chunks::<32>();
        for block in blocks {
            let cur = pulp::cast(*block);
            err = check(simd, cur, prev, err);
            prev = cur;
        }
        // the last bytes padded with NULs, then NULs: a character still
        // open at the end is then followed by ASCII, an error
        let mut pad = [0u8; 32];
        if let Some(head) = pad.get_mut(..tail.len()) {
            head.copy_from_slice(tail);
        }
        let cur = pulp::cast(pad);
        err = check(simd, cur, prev, err);
        err = check(simd, zero, cur, err);
        simd.avx._mm256_testz_si256(err, err) == 1
    }
}

/// Whether `bytes` are UTF-8, on a CPU with AVX2.
pub(super) fn valid(simd: V3, bytes: &[u8]) -> bool {
    simd.vectorize(Validate(simd, bytes))
}
