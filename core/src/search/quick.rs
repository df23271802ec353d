//! A quick search: one query, at most 3 pages of 20, each page's new leads emitted with the
//! checkpoint reached after it.

use std::collections::HashSet;

use super::{
    checkpoint::{Checkpoint, Resume},
    cost::Sku,
    paging::MAX_PAGES,
    request::{accepted_lead, first_request},
    runner::{EventSink, RateGate, SearchFailure, SearchOutcome, SearchPlan, SearchStopped, Upstream},
};
use crate::lead::{BusinessFound, SearchEvent};

/// A quick search: one query, at most 3 pages of 20.
pub(super) async fn quick(
    upstream: &Upstream<'_, impl RateGate>,
    plan: &SearchPlan<'_>,
    sink: &mut impl EventSink,
    resume: Resume,
) -> Result<SearchOutcome, SearchFailure> {
    let mut request = first_request(plan.search);
    let mut seen: HashSet<String> = resume.delivered.iter().map(|l| l.place_id.clone()).collect();
    let mut outcome = SearchOutcome {
        leads: resume.delivered,
        ..SearchOutcome::default()
    };
    let (mut pages, mut total) = (0u32, 0u32);
    if let Some(Checkpoint::Pages {
        pages: done,
        places_seen,
        next_page_token,
        ..
    }) = resume.checkpoint
    {
        (pages, total) = (done, places_seen);
        outcome.requests.add(Sku::Enterprise, done);
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            // The earlier run fetched the last page: nothing left to ask Google.
            None => return Ok(outcome),
        }
    }
    while pages < MAX_PAGES as u32 {
        if outcome.leads.len() as u32 >= plan.lead_budget {
            break;
        }
        if sink.cancelled().await {
            return Err(SearchStopped("nobody is listening".into()).into());
        }
        if let Some(limit) = plan.limit_passed(&outcome.requests, Sku::Enterprise, 1) {
            outcome.stop = Some(limit);
            break;
        }
        let page = upstream.page(crate::places::LEAD_FIELD_MASK, &request).await?;
        pages += 1;
        outcome.requests.add(Sku::Enterprise, 1);
        total += page.places.len() as u32;
        let mut found = Vec::new();
        for place in page.places {
            if outcome.leads.len() as u32 >= plan.lead_budget {
                break;
            }
            let Some(lead) = accepted_lead(plan.search, place) else {
                continue;
            };
            if !seen.insert(lead.place_id.clone()) {
                continue;
            }
            if plan.is_excluded(&lead.place_id) {
                outcome.excluded += 1;
                continue;
            }
            outcome.leads.push(lead.clone());
            found.push(SearchEvent::BusinessFound(BusinessFound {
                name: lead.name.clone(),
                found: outcome.leads.len() as u32,
                total,
                lead,
            }));
        }
        let next_page_token = page.next_page_token.filter(|token| !token.is_empty());
        let checkpoint = Checkpoint::Pages {
            pages,
            places_seen: total,
            leads: outcome.leads.len() as u32,
            next_page_token: next_page_token.clone(),
        };
        sink.emit(found, &checkpoint).await?;
        match next_page_token {
            Some(token) => request.page_token = Some(token),
            None => break,
        }
    }
    Ok(outcome)
}
