//! The page's side of the browser: the evaluation worker, opened files, downloads, the
//! clipboard, the URL fragment and the saved session.
//!
//! Thin wrappers over gloo and web-sys that decide nothing (the state does). The worker is
//! driven through web-sys rather than gloo-worker: gloo-worker carries only serde values,
//! so a 50 MB file would be copied through the page's wasm memory on every evaluation,
//! while a `File` posted to the worker is a handle the worker reads itself.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo_events::EventListener;
use gloo_storage::{LocalStorage, Storage as _};
use js_sys::Array;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{MessageEvent, Worker, WorkerOptions, WorkerType};

use crate::share::{self, Snapshot};
use crate::state::{Action, Content, Document, FileId, EDITABLE_LIMIT};
use crate::view::{Outcome, View};

/// Where the session is saved.
pub const STORAGE_KEY: &str = "kubefit.playground";

/// The worker script (in `www/`), next to `index.html`.
const WORKER_SCRIPT: &str = "./worker.js";

/// The files opened as [`Content::File`]: they stay in the page (for its lifetime: a
/// closed document may come back with a restored session) and go to the worker as
/// handles. File `n` is at index `n - 1`.
#[derive(Debug, Default)]
pub struct Files {
    files: Vec<web_sys::File>,
}

impl Files {
    fn add(&mut self, file: web_sys::File) -> FileId {
        self.files.push(file);
        FileId::try_from(self.files.len()).unwrap_or(FileId::MAX)
    }

    fn get(&self, id: FileId) -> Option<&web_sys::File> {
        self.files.get((id as usize).checked_sub(1)?)
    }
}

/// Reads opened files into documents: text the editor can hold, or a file handle for the
/// worker when it is large or not UTF-8 (the evaluation then reports exactly where).
pub async fn read_files(list: Vec<web_sys::File>, files: Rc<RefCell<Files>>) -> Vec<Document> {
    let mut documents = Vec::with_capacity(list.len());
    for file in list {
        let name = file.name();
        let size = file.size() as u64;
        if size <= EDITABLE_LIMIT {
            let blob = gloo_file::Blob::from(file.clone());
            if let Ok(bytes) = gloo_file::futures::read_as_bytes(&blob).await {
                if let Ok(text) = String::from_utf8(bytes) {
                    documents.push(Document::text(name, text));
                    continue;
                }
            }
        }
        let id = files.borrow_mut().add(file);
        documents.push(Document::file(name, id, size));
    }
    documents
}

/// The evaluation worker: `worker.js` runs this module's [`crate::worker::evaluate_job`].
pub struct Evaluator {
    worker: Worker,
    /// The generation posted last: the one an error event is about.
    posted: Rc<Cell<u64>>,
    _message: EventListener,
    _error: EventListener,
}

impl Evaluator {
    /// Starts the worker and hands it this page's compiled module, so that it loads
    /// nothing more over the network. Results come back as actions.
    ///
    /// # Errors
    ///
    /// When the browser cannot start a module worker.
    pub fn spawn(dispatch: impl Fn(Action) + Clone + 'static) -> Result<Self, JsValue> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(WORKER_SCRIPT, &options)?;
        worker.post_message(&wasm_bindgen::module())?;
        let message = {
            let dispatch = dispatch.clone();
            EventListener::new(&worker, "message", move |event| {
                if let Some(event) = event.dyn_ref::<MessageEvent>() {
                    dispatch(result(&event.data()));
                }
            })
        };
        let posted = Rc::new(Cell::new(0));
        let error = {
            let posted = Rc::clone(&posted);
            EventListener::new(&worker, "error", move |event| {
                let message = event
                    .dyn_ref::<web_sys::ErrorEvent>()
                    .map_or_else(|| "the worker stopped".into(), web_sys::ErrorEvent::message);
                dispatch(Action::EvaluationFailed {
                    generation: posted.get(),
                    message,
                });
            })
        };
        Ok(Self {
            worker,
            posted,
            _message: message,
            _error: error,
        })
    }

    /// Asks the worker to evaluate the documents as they are at `generation`.
    pub fn post(&self, generation: u64, documents: &[Document], files: &Files) {
        // The job: [generation, [name, text or File], ...].
        #[allow(clippy::cast_precision_loss)] // generations stay far below 2^53
        let job = Array::of1(&JsValue::from_f64(generation as f64));
        for document in documents {
            let content = match &document.content {
                Content::Text(text) => JsValue::from_str(text),
                Content::File { id, .. } => files
                    .get(*id)
                    .map_or(JsValue::NULL, |file| file.clone().into()),
            };
            job.push(&Array::of2(&JsValue::from_str(&document.name), &content));
        }
        self.posted.set(generation);
        // Posting strings and files cannot fail to clone.
        let _ = self.worker.post_message(&job);
    }
}

impl Drop for Evaluator {
    fn drop(&mut self) {
        self.worker.terminate();
    }
}

/// The action for a worker's answer: `[generation, view JSON, report JSON, text, millis]`,
/// or `[generation, null, message]` when it failed.
fn result(data: &JsValue) -> Action {
    let data: &Array = data.unchecked_ref();
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let generation = data.get(0).as_f64().unwrap_or(0.0) as u64;
    let view = data
        .get(1)
        .as_string()
        .map(|json| serde_json::from_str::<View>(&json));
    match view {
        Some(Ok(view)) => {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let millis = data.get(4).as_f64().unwrap_or(0.0) as u32;
            Action::Evaluated {
                generation,
                outcome: Rc::new(Outcome {
                    view,
                    json: data.get(2).as_string().unwrap_or_default(),
                    text: data.get(3).as_string().unwrap_or_default(),
                }),
                millis,
            }
        }
        Some(Err(error)) => Action::EvaluationFailed {
            generation,
            message: format!("the worker's answer is unreadable: {error}"),
        },
        None => Action::EvaluationFailed {
            generation,
            message: data
                .get(2)
                .as_string()
                .unwrap_or_else(|| "the worker failed".into()),
        },
    }
}

/// The state in the URL fragment, if there is one; it is removed from the address bar so
/// that a reload shows later edits (from the saved session) rather than the link again.
#[must_use]
pub fn take_fragment() -> Option<Result<Snapshot, share::Error>> {
    let window = web_sys::window()?;
    let hash = window.location().hash().ok()?;
    if !share::is_state(&hash) {
        return None;
    }
    if let Ok(history) = window.history() {
        let location = window.location();
        let bare = format!(
            "{}{}",
            location.pathname().unwrap_or_default(),
            location.search().unwrap_or_default()
        );
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&bare));
    }
    Some(share::decode(&hash))
}

/// The saved session, if any.
#[must_use]
pub fn saved() -> Option<Snapshot> {
    let text: String = LocalStorage::get(STORAGE_KEY).ok()?;
    share::decode(&text).ok()
}

/// Saves the session; a full storage keeps the previous one.
pub fn save(snapshot: &Snapshot) {
    let _ = LocalStorage::set(STORAGE_KEY, share::encode(snapshot));
}

/// The page's address with the state in the fragment.
#[must_use]
pub fn link(snapshot: &Snapshot) -> String {
    let base = web_sys::window()
        .and_then(|window| window.location().href().ok())
        .unwrap_or_default();
    let base = base.split('#').next().unwrap_or_default();
    format!("{base}#{}", share::encode(snapshot))
}

/// Puts text on the clipboard.
///
/// # Errors
///
/// When the browser refuses (no permission, or not a secure context).
pub async fn copy(text: &str) -> Result<(), JsValue> {
    let window = web_sys::window().ok_or(JsValue::NULL)?;
    let promise = window.navigator().clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise)
        .await
        .map(drop)
}

/// Offers text as a file download.
pub fn download(name: &str, mime: &str, text: &str) {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let url = gloo_file::ObjectUrl::from(gloo_file::Blob::new_with_options(text, Some(mime)));
    let Ok(anchor) = document
        .create_element("a")
        .map(JsCast::unchecked_into::<web_sys::HtmlAnchorElement>)
    else {
        return;
    };
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // Revoking the URL at once could cancel the download in some browsers.
    gloo_timers::callback::Timeout::new(60_000, move || drop(url)).forget();
}

/// Narrows the page's Content Security Policy once the module has loaded: the loader
/// needed `connect-src 'self'` to fetch the `.wasm`; from now on nothing may be fetched.
pub fn forbid_connections() {
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return;
    };
    let (Ok(meta), Some(head)) = (document.create_element("meta"), document.head()) else {
        return;
    };
    let _ = meta.set_attribute("http-equiv", "Content-Security-Policy");
    let _ = meta.set_attribute("content", "connect-src 'none'");
    let _ = head.append_child(&meta);
}

/// Records a performance mark (the end-to-end test reads `kubefit:evaluated`).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.mark(name);
    }
}
