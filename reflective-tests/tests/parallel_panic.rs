//! A generator that panics in a parallel run: its message reaches the panic hook, which the
//! test harness prints, as in a sequential run. (A test binary of its own: it sets the
//! process's panic hook.)

use std::sync::{Arc, Mutex};

use reflective::check::{Config, check_parallel_with};
use reflective::prelude::*;

#[test]
fn a_generator_panic_in_a_parallel_run_reaches_the_panic_hook() {
    let printed = Arc::new(Mutex::new(Vec::<String>::new()));
    let hooked = Arc::clone(&printed);
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|text| text.to_string()))
            .unwrap_or_default();
        hooked.lock().unwrap().push(message);
    }));
    let g = range(0u32..=10).map(|x| {
        assert!(x != 5, "boom");
        x
    });
    let config = Config::new().seed(1).regressions(false);
    let outcome = std::panic::catch_unwind(|| check_parallel_with(&config, &g, |_: &u32| true));
    let _ = std::panic::take_hook();
    assert!(outcome.is_err(), "the run panics");
    let printed = printed.lock().unwrap();
    assert!(
        printed.iter().any(|message| message
            .contains("the generator panicked at reflective-tests/tests/parallel_panic.rs:")
            && message.contains(": boom (case")
            && message.contains("REFLECTIVE_REPLAY=")),
        "printed: {printed:?}"
    );
}
