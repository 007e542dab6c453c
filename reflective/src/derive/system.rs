//! [`Reflective`] for the standard library's types that name things outside the program:
//! network addresses, paths and system times (OS strings, plain text, are in `sequences.rs`).
//! Each is made of integers and strings as `reflective.rs` generates them, seen through a map
//! and its way back, so it reflects, shrinks and mutates as they do.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, SocketAddrV4, SocketAddrV6};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::cache::cached;
use super::dimension::{Dimensions, Reach, Shape};
use super::reflective::{Reflective, collection_dimension, in_own_levels, product_dimension};
use super::sequences::text_shrinks;
use crate::builtin::{any_char_but, array, string_of, tuple, vec};
use crate::combinator::{int, int_in, pick};
use crate::generator::{Gen, Generator};

/// The impls for the addresses made of an array of integers.
macro_rules! address {
    ($($(#[$doc:meta])* $address:ty = [$part:ty; $n:literal] by $parts:ident;)*) => {$(
        $(#[$doc])*
        impl Reflective for $address {
            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    array::<$part, $n>(int())
                        .map(<$address>::from)
                        .comap(|address: &$address| Some(address.$parts()))
                        .boxed()
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                self.$parts()
                    .shrink_candidates()
                    .into_iter()
                    .map(<$address>::from)
                    .collect()
            }
        }
    )*};
}

address! {
    /// Four octets, each as a `u8` is drawn: mostly small, now and then 255, so `0.0.0.0`,
    /// `127.0.0.1`-like and broadcast-like addresses come up. Shrunk octet by octet towards 0.
    ///
    /// ```
    /// use reflective::prelude::*;
    /// use std::net::Ipv4Addr;
    /// assert!(Ipv4Addr::arbitrary_reflective().can_generate(&Ipv4Addr::new(192, 168, 0, 1)));
    /// ```
    Ipv4Addr = [u8; 4] by octets;
    /// Eight 16-bit segments, each as a `u16` is drawn. Shrunk segment by segment towards 0.
    Ipv6Addr = [u16; 8] by segments;
}

/// The impls for the enums of a version 4 and a version 6 variant.
macro_rules! either_version {
    ($($either:ident($v4:ty, $v6:ty);)*) => {$(
        /// Version 4 or version 6, equally likely, labelled `"V4"` and `"V6"`; shrunk
        /// within its version.
        impl Reflective for $either {
            product_dimension!($v4, $v6);

            fn arbitrary_reflective() -> Gen<Self, Self> {
                cached::<Self, _>(|| {
                    pick((
                        (
                            1,
                            "V4",
                            <$v4>::arbitrary_reflective()
                                .focus(|value: &$either| match value {
                                    $either::V4(inner) => Some(inner),
                                    $either::V6(_) => None,
                                })
                                .map($either::V4),
                        ),
                        (
                            1,
                            "V6",
                            <$v6>::arbitrary_reflective()
                                .focus(|value: &$either| match value {
                                    $either::V6(inner) => Some(inner),
                                    $either::V4(_) => None,
                                })
                                .map($either::V6),
                        ),
                    ))
                    .boxed()
                })
            }

            fn shrink_candidates(&self) -> Vec<Self> {
                match self {
                    $either::V4(inner) => {
                        inner.shrink_candidates().into_iter().map($either::V4).collect()
                    }
                    $either::V6(inner) => {
                        inner.shrink_candidates().into_iter().map($either::V6).collect()
                    }
                }
            }
        }
    )*};
}

either_version! {
    IpAddr(Ipv4Addr, Ipv6Addr);
    SocketAddr(SocketAddrV4, SocketAddrV6);
}

/// An address and a port, each as its type draws it.
impl Reflective for SocketAddrV4 {
    product_dimension!(Ipv4Addr, u16);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            tuple((Ipv4Addr::arbitrary_reflective(), int::<u16>()))
                .map(|(ip, port)| SocketAddrV4::new(ip, port))
                .comap(|address: &SocketAddrV4| Some((*address.ip(), address.port())))
                .boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        (*self.ip(), self.port())
            .shrink_candidates()
            .into_iter()
            .map(|(ip, port)| SocketAddrV4::new(ip, port))
            .collect()
    }
}

/// An address, a port, a flow label and a scope, each as its type draws it (the last two
/// mostly small).
impl Reflective for SocketAddrV6 {
    product_dimension!(Ipv6Addr, u16, u32, u32);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            tuple((
                Ipv6Addr::arbitrary_reflective(),
                int::<u16>(),
                int::<u32>(),
                int::<u32>(),
            ))
            .map(|(ip, port, flow, scope)| SocketAddrV6::new(ip, port, flow, scope))
            .comap(|address: &SocketAddrV6| Some(socket_v6_parts(address)))
            .boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        socket_v6_parts(self)
            .shrink_candidates()
            .into_iter()
            .map(|(ip, port, flow, scope)| SocketAddrV6::new(ip, port, flow, scope))
            .collect()
    }
}

/// The address, port, flow label and scope of `address`.
fn socket_v6_parts(address: &SocketAddrV6) -> (Ipv6Addr, u16, u32, u32) {
    (
        *address.ip(),
        address.port(),
        address.flowinfo(),
        address.scope_id(),
    )
}

/// Components (strings of any `char` but `/`, as a `String`'s are drawn) joined by `/`: one
/// component or more, the path absolute when the first is empty (`/tmp` is `["", "tmp"]`),
/// with empty ones (`a//b`) now and then. Any path whose text is Unicode reflects, as the
/// same text, in exactly one way, at a size large enough for its components (as a `Vec` of
/// them does); a path that is not Unicode does not.
///
/// ```
/// use reflective::prelude::*;
/// use std::path::PathBuf;
/// let paths = PathBuf::arbitrary_reflective();
/// assert!(paths.can_generate(&PathBuf::from("/tmp/a b/../c.txt")));
/// assert!(paths.can_generate(&PathBuf::from("")));
/// ```
impl Reflective for PathBuf {
    collection_dimension!(String);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            let component = string_of(any_char_but('/'), ..);
            in_own_levels(
                vec(component, 1..)
                    .map(|components| PathBuf::from(components.join("/")))
                    .comap(|path: &PathBuf| {
                        let text = path.to_str()?;
                        Some(text.split('/').map(String::from).collect::<Vec<_>>())
                    })
                    .boxed(),
            )
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        // Paths are equal by their components: `a//b` is `a/b`, which is no shrink of it.
        let mut shrinks = text_shrinks(self.to_str(), PathBuf::from);
        shrinks.retain(|shrunk| shrunk != self);
        shrinks
    }
}

/// How far from the Unix epoch a generated [`SystemTime`] may be, in seconds either side:
/// 2^33 s, about 272 years (1697 to 2242), within what every platform's `SystemTime` holds.
const SYSTEM_TIME_SPAN_SECS: i64 = 1 << 33;

/// The nanoseconds of a second.
const NANOS_PER_SEC: u32 = 1_000_000_000;

/// Whole seconds from the Unix epoch (as an `i64` within 2^33 s either side, about 272 years, is
/// drawn: mostly near the epoch, now and then at the span's ends) and nanoseconds after them.
/// A time outside the span does not reflect. Shrunk towards the epoch.
///
/// ```
/// use reflective::prelude::*;
/// use std::time::{Duration, SystemTime, UNIX_EPOCH};
/// let times = SystemTime::arbitrary_reflective();
/// assert!(times.can_generate(&(UNIX_EPOCH - Duration::from_nanos(1))));
/// assert!(times.can_generate(&(UNIX_EPOCH + Duration::from_secs(1_800_000_000))));
/// ```
impl Reflective for SystemTime {
    product_dimension!(i64, u32);

    fn arbitrary_reflective() -> Gen<Self, Self> {
        cached::<Self, _>(|| {
            tuple((
                int_in(-SYSTEM_TIME_SPAN_SECS..=SYSTEM_TIME_SPAN_SECS),
                int_in(0..NANOS_PER_SEC),
            ))
            .map(|(secs, nanos)| time_at(secs, nanos))
            .comap(|time: &SystemTime| seconds_and_nanos(*time))
            .boxed()
        })
    }

    fn shrink_candidates(&self) -> Vec<Self> {
        let Some(parts) = seconds_and_nanos(*self) else {
            return Vec::new();
        };
        parts
            .shrink_candidates()
            .into_iter()
            .filter(|(secs, _)| secs.abs() <= SYSTEM_TIME_SPAN_SECS)
            .map(|(secs, nanos)| time_at(secs, nanos))
            .collect()
    }
}

/// The time `secs` whole seconds from the Unix epoch (before it if negative) and `nanos`
/// nanoseconds after them; `secs` is within [`SYSTEM_TIME_SPAN_SECS`], which every platform
/// holds.
fn time_at(secs: i64, nanos: u32) -> SystemTime {
    let whole = Duration::from_secs(secs.unsigned_abs());
    let at_second = if secs >= 0 {
        UNIX_EPOCH.checked_add(whole)
    } else {
        UNIX_EPOCH.checked_sub(whole)
    };
    at_second
        .and_then(|time| time.checked_add(Duration::from_nanos(u64::from(nanos))))
        .expect("times within the span are held on every platform")
}

/// The whole seconds from the Unix epoch (rounded down) and the nanoseconds after them of
/// `time`, if it is within [`SYSTEM_TIME_SPAN_SECS`].
fn seconds_and_nanos(time: SystemTime) -> Option<(i64, u32)> {
    let (secs, nanos) = match time.duration_since(UNIX_EPOCH) {
        Ok(after) => (i64::try_from(after.as_secs()).ok()?, after.subsec_nanos()),
        Err(before) => {
            let before = before.duration();
            let secs = i64::try_from(before.as_secs()).ok()?;
            match before.subsec_nanos() {
                0 => (-secs, 0),
                nanos => (-secs - 1, NANOS_PER_SEC - nanos),
            }
        }
    };
    (secs.abs() <= SYSTEM_TIME_SPAN_SECS).then_some((secs, nanos))
}
