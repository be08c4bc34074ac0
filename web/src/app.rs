//! The components: they render a [`State`] and dispatch [`Action`]s, nothing more.
//!
//! [`App`] lays out the page and owns the effects that talk to the browser (the debounce
//! timer, the worker, the saved session, the URL fragment); the parts are in the
//! submodules. Every user-supplied string (the input, names, labels, messages) goes into
//! the page as a text node through `html!`'s `{ … }`, never as markup.

mod disruption;
mod editor;
mod header;
mod nodes;
mod placement;
mod pods;
mod problems;
mod results;

use std::cell::RefCell;
use std::rc::Rc;

use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use yew::prelude::*;

use crate::browser::{self, Evaluator, Files};
use crate::state::{Action, State, Status};

pub use editor::Editor;
pub use header::Header;
pub use nodes::NodesTable;
pub use pods::PodsTable;
pub use problems::Problems;
pub use results::Results;

/// The thin adapter that lets `use_reducer` drive [`State::apply`].
impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(self.apply(action))
    }
}

/// Properties of [`App`].
#[derive(Properties)]
pub struct AppProps {
    /// The state to start with.
    pub initial: Rc<State>,
}

impl PartialEq for AppProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.initial, &other.initial)
    }
}

impl Default for AppProps {
    fn default() -> Self {
        Self {
            initial: Rc::new(State::default()),
        }
    }
}

/// A dispatcher as a plain callback, for the parts.
pub type Dispatch = Callback<Action>;

/// The playground page.
#[component]
pub fn App(props: &AppProps) -> Html {
    let state = {
        let initial = Rc::clone(&props.initial);
        use_reducer(move || (*initial).clone())
    };
    // One callback for the page's lifetime, so that parts whose inputs did not change
    // compare equal and are not rendered again.
    let dispatch: Dispatch = {
        let dispatcher = state.dispatcher();
        (*use_memo((), move |()| {
            Callback::from(move |action| dispatcher.dispatch(action))
        }))
        .clone()
    };
    let files = use_mut_ref(Files::default);
    let evaluator: Rc<RefCell<Option<Evaluator>>> = use_mut_ref(|| None);

    // Started with the page, so that the worker's script loads with everything else.
    {
        let evaluator = Rc::clone(&evaluator);
        let dispatcher = state.dispatcher();
        use_effect_with((), move |()| {
            start_worker(&evaluator, &dispatcher);
            // The whole state can arrive in a link pasted into this tab's address bar.
            let listener = web_sys::window().map(|window| {
                EventListener::new(
                    &window,
                    "hashchange",
                    move |_| match browser::take_fragment() {
                        Some(Ok(snapshot)) => dispatcher.dispatch(Action::Restore(snapshot)),
                        Some(Err(error)) => dispatcher.dispatch(Action::Notify(error.to_string())),
                        None => {}
                    },
                )
            });
            move || drop(listener)
        });
    }
    // Evaluate once typing pauses; every edit restarts the timer.
    {
        let dispatcher = state.dispatcher();
        let delay = state.debounce_millis();
        use_effect_with(state.edits(), move |_| {
            let timer = Timeout::new(delay, move || dispatcher.dispatch(Action::Evaluate));
            move || drop(timer)
        });
    }
    // Post what the state wants the worker to evaluate.
    {
        let evaluator = Rc::clone(&evaluator);
        let files = Rc::clone(&files);
        let dispatcher = state.dispatcher();
        let documents = state.documents().to_vec();
        use_effect_with(state.running(), move |running| {
            if let Some(generation) = *running {
                start_worker(&evaluator, &dispatcher);
                match evaluator.borrow().as_ref() {
                    Some(worker) => worker.post(generation, &documents, &files.borrow()),
                    None => dispatcher.dispatch(Action::EvaluationFailed {
                        generation,
                        message: "this browser cannot start the evaluation worker".into(),
                    }),
                }
            }
        });
    }
    // Save the session a moment after it changes.
    {
        let snapshot = state.snapshot();
        use_effect_with(state.snapshot_key(), move |_| {
            let timer = Timeout::new(300, move || browser::save(&snapshot));
            move || drop(timer)
        });
    }
    // Mark each shown evaluation (the end-to-end test measures the first one).
    use_effect_with(Rc::as_ptr(state.outcome()) as usize, |_| {
        browser::mark("kubefit:evaluated");
    });
    // Notices go away by themselves.
    {
        let dispatcher = state.dispatcher();
        use_effect_with(state.notice().map(|notice| notice.serial), move |serial| {
            let timer = serial.map(|serial| {
                Timeout::new(6000, move || dispatcher.dispatch(Action::Dismiss(serial)))
            });
            move || drop(timer)
        });
    }

    let on_files = {
        let dispatch = dispatch.clone();
        let files = Rc::clone(&files);
        Callback::from(move |list: Vec<web_sys::File>| {
            let dispatch = dispatch.clone();
            let files = Rc::clone(&files);
            yew::platform::spawn_local(async move {
                let documents = browser::read_files(list, files).await;
                dispatch.emit(Action::Open(documents));
            });
        })
    };
    let dragging = use_state(|| false);
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            dragging.set(true);
        })
    };
    let ondragleave = {
        let dragging = dragging.clone();
        Callback::from(move |event: DragEvent| {
            // Leaving for a child element is not leaving the page.
            if event.related_target().is_none() {
                dragging.set(false);
            }
        })
    };
    let ondrop = {
        let dragging = dragging.clone();
        let on_files = on_files.clone();
        Callback::from(move |event: DragEvent| {
            event.prevent_default();
            dragging.set(false);
            if let Some(list) = event.data_transfer().and_then(|data| data.files()) {
                on_files.emit(file_list(&list));
            }
        })
    };

    // The parts take the state by `Rc` (a reducer handle cannot be lent out as one).
    let shared = Rc::new((*state).clone());
    let status = state.status();
    html! {
        <div class={classes!("app", dragging.then_some("dragging"))}
            { ondragover } { ondragleave } { ondrop }>
            <Header state={ Rc::clone(&shared) } dispatch={ dispatch.clone() } on_files={ on_files } />
            <main>
                <section class="pane input-pane" aria-label="Input">
                    <Editor state={ Rc::clone(&shared) } dispatch={ dispatch.clone() } />
                    <Problems outcome={ Rc::clone(state.outcome()) } dispatch={ dispatch.clone() } />
                </section>
                <section class="pane output-pane" aria-label="Results">
                    <Results state={ Rc::clone(&shared) } dispatch={ dispatch.clone() } />
                </section>
            </main>
            <footer>
                <span>{ "Runs entirely in your browser: nothing you paste or open leaves this page." }</span>
                <span class="status" role="status" aria-live="polite">{ status_text(&status, state.millis()) }</span>
            </footer>
            if let Some(notice) = state.notice() {
                <div class="toast" role="alert">
                    <span>{ notice.text.clone() }</span>
                    <button type="button" class="ghost" aria-label="Dismiss"
                        onclick={ let serial = notice.serial; dispatch.reform(move |_| Action::Dismiss(serial)) }>
                        { "×" }
                    </button>
                </div>
            }
            <div class="drop-hint" aria-hidden="true">{ "Drop YAML or JSON files to open them" }</div>
        </div>
    }
}

/// The worker, started unless it is running.
fn start_worker(evaluator: &RefCell<Option<Evaluator>>, dispatcher: &UseReducerDispatcher<State>) {
    if evaluator.borrow().is_some() {
        return;
    }
    let dispatcher = dispatcher.clone();
    *evaluator.borrow_mut() = Evaluator::spawn(move |action| dispatcher.dispatch(action)).ok();
}

/// The files of a `FileList`.
pub fn file_list(list: &web_sys::FileList) -> Vec<web_sys::File> {
    (0..list.length())
        .filter_map(|index| list.get(index))
        .collect()
}

/// Puts `text` on the clipboard, then shows `copied`, or why it could not.
pub fn copy(text: String, copied: String, dispatch: Dispatch) {
    yew::platform::spawn_local(async move {
        let notice = match browser::copy(&text).await {
            Ok(()) => copied,
            Err(_) => "The browser refused the clipboard; allow it and try again".into(),
        };
        dispatch.emit(Action::Notify(notice));
    });
}

/// The footer's account of the results.
fn status_text(status: &Status, millis: Option<u32>) -> String {
    match (status, millis) {
        (Status::Current, Some(millis)) => {
            format!("Evaluated in a background worker in {millis} ms")
        }
        (Status::Current, None) => "Up to date".into(),
        (Status::Waiting, _) => "Evaluating when you pause typing…".into(),
        (Status::Running, _) => "Evaluating in a background worker…".into(),
        (Status::Failed(message), _) => format!("Evaluation failed: {message}"),
    }
}

/// Properties of the parts: the state and a way to change it.
#[derive(Properties)]
pub struct PartProps {
    /// The state to render.
    pub state: Rc<State>,
    /// Where actions go.
    pub dispatch: Dispatch,
}

impl PartialEq for PartProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.state, &other.state) && self.dispatch == other.dispatch
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_says_where_results_come_from() {
        assert_eq!(status_text(&Status::Current, None), "Up to date");
        assert!(status_text(&Status::Current, Some(812)).contains("812 ms"));
        assert!(status_text(&Status::Running, None).contains("background"));
        assert!(status_text(&Status::Failed("boom".into()), None).contains("boom"));
    }
}
