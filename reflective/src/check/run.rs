//! One run of a property: the cases stored in its regressions file first, then its own, and the
//! minimal failure stored.

use std::fmt::Debug;
use std::io::Write;

use crate::choice::ChoiceTree;
use crate::engine::caught;
use crate::generator::Generator;
use crate::interpret::Generated;
use crate::interpret::shrink::Shrunk;

use super::cases::shrink_failure;
use super::config::Resolved;
use super::config::test_name;
use super::outcome::{Outcome, Verdict, verdict};
use super::regressions::{self, Stored};
use super::report::{Failure, Origin, coverage_report, replay_held_note};
use super::statistics::{Coverage, Statistics};
use super::watchdog::{Doing, watched};

/// Keeps the values, as JSON: read back by reflection. A value is kept as JSON only if the
/// value read back from it fails the property again: JSON does not give every value back as
/// it was (it writes a NaN or an infinity as `null`, which does not read back as a float, and
/// `Some(None)` as `null`, which reads back as `None`). Otherwise, and for a value JSON cannot
/// write (a map keyed by tuples), its choices are kept, which replay to it.
#[cfg(feature = "serde")]
pub(super) struct KeepValues<'g, G> {
    pub(super) settings: &'g Resolved,
    pub(super) g: &'g G,
}

#[cfg(feature = "serde")]
impl<G, T> Keep<T> for KeepValues<'_, G>
where
    G: Generator<Input = T, Output = T>,
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    fn stored(&self, shrunk: &Shrunk<T>, fails: &dyn Fn(&T) -> bool) -> Stored {
        if let Ok(json) = serde_json::to_string(&shrunk.value) {
            let value = Stored::Value(json);
            let read_back = caught(|| self.replay(&value));
            if let Ok(Ok(Some(generated))) = read_back
                && fails(&generated.value)
            {
                return value;
            }
        }
        Stored::Choices(shrunk.tree.clone())
    }

    fn replay(&self, stored: &Stored) -> Result<Option<Generated<T>>, String> {
        let json = match stored {
            Stored::Choices(tree) => return replay_choices(self.settings, self.g, tree).map(Some),
            Stored::Value(json) => json,
        };
        let value: T = serde_json::from_str(json)
            .map_err(|error| format!("cannot read the stored value: {error}"))?;
        let tree = match self.settings.strategy {
            Some(strategy) => {
                crate::interpret::shrink::choices_of(&self.g.size_strategy(strategy), &value)
            }
            None => crate::interpret::shrink::choices_of(self.g, &value),
        }
        .ok_or(
            "the generator no longer produces the stored value; if that is meant, delete the line",
        )?;
        replay_choices(self.settings, self.g, &tree).map(Some)
    }
}

/// Runs the stored cases, then the run's (or only the one to replay), and shrinks the first
/// failure, which it stores. `Err` with the report if the run failed: a failing case, a run
/// that gave up, coverage not met, or a regressions file that cannot be read (with the file,
/// the line and how to mend it).
pub(super) fn run<G, O>(
    settings: &Resolved,
    g: &G,
    property: &impl Fn(&G::Output) -> O,
    keep: &dyn Keep<G::Output>,
    cases: impl FnOnce(&mut Statistics) -> Result<Option<Failure<G::Output>>, String>,
) -> Result<(), String>
where
    G: Generator,
    G::Output: Clone + Debug,
    O: Outcome,
{
    let test = test_name();
    let file = test
        .as_deref()
        .filter(|_| settings.regressions)
        .and_then(|test| regressions::file_of(test, settings.called_from));
    let mut failure = None;
    if let (Some(path), None) = (&file, settings.replay) {
        let stored = regressions::load(path)
            .map_err(|error| format!("reflective: the regressions file: {error}"))?;
        for (line, case) in stored {
            let replayed = keep.replay(&case).map_err(|error| {
                format!(
                    "reflective: the regressions file: {}",
                    regressions::at_line(path, line, &error)
                )
            })?;
            let Some(generated) = replayed else {
                continue;
            };
            let stored = format!("the case stored at {}, line {line},", path.display());
            let judged = watched(settings, Doing::Described(&stored), || {
                verdict(settings, property, &generated.value)
            });
            if let Verdict::Failed(reason) = judged {
                let repaired = matches!(
                    &case,
                    Stored::Choices(tree) if !regressions::replayed_as_stored(tree, &generated.tree)
                );
                let origin = Origin::Stored {
                    path: path.clone(),
                    line,
                    repaired,
                };
                failure = Some(shrink_failure(
                    settings, g, property, origin, generated, reason,
                ));
                break;
            }
        }
    }
    let mut statistics = Statistics::judged(settings.check_coverage);
    if failure.is_none() {
        failure = cases(&mut statistics)?;
    }
    let Some(mut failure) = failure else {
        // One replayed case says nothing about coverage.
        let coverage = match settings.replay {
            Some(_) => Coverage::Met,
            None => statistics.coverage(settings.check_coverage),
        };
        if coverage != Coverage::Met {
            return Err(coverage_report(
                settings,
                &statistics,
                coverage == Coverage::Unsure,
            ));
        }
        if let Some(replay) = settings.replay
            && std::env::var_os("REFLECTIVE_REPLAY").is_some()
        {
            // Written past the test harness's capture, which shows a passing test's output
            // to no one: a replay line left in the environment runs one case of every test.
            let note = replay_held_note(test.as_deref(), replay);
            let _ = std::io::stderr().lock().write_all(note.as_bytes());
        }
        if settings.statistics && !statistics.is_empty() {
            // Named, since with `--nocapture` the tests' tables come one after another.
            match &test {
                Some(test) => println!("{test}: {statistics}"),
                None => println!("{statistics}"),
            }
        }
        return Ok(());
    };
    failure.statistics = statistics;
    if let (Some(path), Some(test), false) = (&file, &test, failure.flaky) {
        let fails =
            |value: &G::Output| matches!(verdict(settings, property, value), Verdict::Failed(_));
        let saved = regressions::save(path, test, &keep.stored(&failure.shrunk, &fails));
        failure.saved = Some(saved.map(|()| path.clone()));
    } else if settings.regressions && !failure.flaky && regressions::test_unknown() {
        failure.saved = Some(Err(regressions::TEST_UNKNOWN.to_string()));
    }
    Err(failure.to_string())
}

/// How a run keeps its failures in the regressions file: their choices, or (with the `serde`
/// feature) their values.
pub(super) trait Keep<T> {
    /// What to store of `shrunk`, given whether a value `fails` the property (which a keeper
    /// that stores values asks of the value it reads back).
    fn stored(&self, shrunk: &Shrunk<T>, fails: &dyn Fn(&T) -> bool) -> Stored;

    /// The case a stored line gives now; `None` for a kind of line this keeper does not read
    /// (a value, for one that keeps choices), which stays in the file for the one that does.
    fn replay(&self, stored: &Stored) -> Result<Option<Generated<T>>, String>;
}

/// Keeps the choices: for any generator.
pub(super) struct KeepChoices<'g, G> {
    pub(super) settings: &'g Resolved,
    pub(super) g: &'g G,
}

impl<G: Generator> Keep<G::Output> for KeepChoices<'_, G> {
    fn stored(&self, shrunk: &Shrunk<G::Output>, _: &dyn Fn(&G::Output) -> bool) -> Stored {
        Stored::Choices(shrunk.tree.clone())
    }

    fn replay(&self, stored: &Stored) -> Result<Option<Generated<G::Output>>, String> {
        match stored {
            Stored::Choices(tree) => replay_choices(self.settings, self.g, tree).map(Some),
            Stored::Value(_) => Ok(None),
        }
    }
}

/// The value a stored case's choices give now, repaired where the generator changed.
pub(super) fn replay_choices<G: Generator>(
    settings: &Resolved,
    g: &G,
    tree: &ChoiceTree,
) -> Result<Generated<G::Output>, String> {
    let replayed = caught(|| match settings.strategy {
        Some(strategy) => g.size_strategy(strategy).replay_repaired(tree),
        None => g.replay_repaired(tree),
    });
    match replayed {
        Ok(replayed) => replayed.map_err(|error| error.to_string()),
        Err(panic) => Err(format!("the generator panicked on it: {panic}")),
    }
}
