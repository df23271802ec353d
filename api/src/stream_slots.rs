//! Live search streams each user holds open on this process (#25): one account cannot
//! pin thousands of connections, each holding a subscription to the bus. A slot is taken
//! before a stream starts and given back when its connection ends, however it ends.
//!
//! Counted per API process, like the rate limits: behind several replicas a user may hold
//! up to the cap on each (the chart documents it).

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
};

use leadgen_core::ids::UserId;

use crate::error::ApiError;

/// The open streams, per user.
#[derive(Clone)]
pub struct StreamSlots(Arc<Inner>);

struct Inner {
    max_per_user: usize,
    open: Mutex<HashMap<String, usize>>,
}

/// One open stream's slot; dropping it gives the slot back.
pub struct StreamSlot {
    slots: StreamSlots,
    user: String,
}

impl StreamSlots {
    /// At most `max_per_user` streams a user.
    pub fn new(max_per_user: usize) -> Self {
        Self(Arc::new(Inner {
            max_per_user,
            open: Mutex::new(HashMap::new()),
        }))
    }

    /// A slot for one more stream of `user`, or 429 in plain words when they hold the cap.
    pub fn acquire(&self, user: &UserId) -> Result<StreamSlot, ApiError> {
        let mut open = self.0.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(user.as_str().to_owned()).or_insert(0);
        if *count >= self.0.max_per_user {
            let max = self.0.max_per_user;
            return Err(ApiError::too_many(
                "too_many_streams",
                format!("You have {max} live searches open; close one to start or follow another."),
            ));
        }
        *count += 1;
        Ok(StreamSlot {
            slots: self.clone(),
            user: user.as_str().to_owned(),
        })
    }

    /// Streams `user` holds open now.
    pub fn open_for(&self, user: &UserId) -> usize {
        let open = self.0.open.lock().unwrap_or_else(|e| e.into_inner());
        open.get(user.as_str()).copied().unwrap_or(0)
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        let mut open = self.slots.0.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.user) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&self.user);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_holds_per_user_and_a_closed_stream_frees_its_slot() {
        let slots = StreamSlots::new(2);
        let (ann, bob) = (UserId::from("ann"), UserId::from("bob"));
        let first = slots.acquire(&ann).expect("first");
        let _second = slots.acquire(&ann).expect("second");
        let Err(ApiError::TooManyRequests(body)) = slots.acquire(&ann) else {
            panic!("a third stream must be refused with 429");
        };
        assert_eq!(
            body.0.message,
            "You have 2 live searches open; close one to start or follow another."
        );
        assert!(slots.acquire(&bob).is_ok(), "another user has slots of their own");
        drop(first);
        assert_eq!(slots.open_for(&ann), 1);
        assert!(slots.acquire(&ann).is_ok(), "a closed stream gives its slot back");
    }
}
