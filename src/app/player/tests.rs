use super::*;
use crate::wire::{Origin, SessionEvent};
use serde_json::json;

fn records(times: &[i64]) -> Arc<Vec<Record>> {
    Arc::new(
        times
            .iter()
            .enumerate()
            .map(|(i, t)| Record::Event {
                event: SessionEvent {
                    kind: if i % 10 == 0 {
                        "turn/start".into()
                    } else {
                        "step/start".into()
                    },
                    seq: i as u64,
                    time: *t,
                    data: crate::wire::RawJson::from_value(&json!({"turn": i / 10})),
                    ignorable: false,
                    source_event_seqs: vec![],
                },
                view: None,
                origin: Origin::default(),
            })
            .collect(),
    )
}

#[test]
fn idle_gaps_are_capped_and_negative_gaps_zero() {
    let r = records(&[1000, 1100, 61_100, 61_000, 61_200]);
    assert_eq!(
        effective_times(&r, Some(2000)),
        vec![0, 100, 2100, 2100, 2300]
    );
    assert_eq!(
        effective_times(&r, None),
        vec![0, 100, 60_100, 60_100, 60_300]
    );
}

#[test]
fn speed_scales_the_clock() {
    let r = records(&[1000, 2000, 3000, 4000]);
    let mut p = Player::new(r, None, None, 2.0);
    p.tick(0.0);
    assert_eq!(p.position(), 1);
    p.tick(500.0);
    assert_eq!(p.position(), 2);
    p.faster();
    assert_eq!(p.speed(), 4.0);
    p.tick(500.0);
    assert_eq!(p.position(), 4);
    assert!(!p.playing, "stops at the end");
}

#[test]
fn seeking_back_refolds_to_the_same_state() {
    let times: Vec<i64> = (0..5000).map(|i| 1000 + i * 10).collect();
    let r = records(&times);
    let mut p = Player::new(r.clone(), None, None, 1.0);
    p.seek_records(5000);
    p.seek_records(1234);
    let direct = Transcript::from_records(None, &r[..1234], crate::agents::stock());
    assert_eq!(p.transcript().events(), direct.events());
    assert_eq!(p.transcript().items(), direct.items());
    p.seek_fraction(0.5);
    assert_eq!(p.position(), 2500);
    // Steps go past what shows nothing (step/start): back to before the
    // turn/start of record 2490, then of 2480; forward to just after it.
    p.step_back();
    assert_eq!(p.position(), 2490);
    assert!(!p.playing);
    p.step_back();
    assert_eq!(p.position(), 2480);
    p.step_forward();
    assert_eq!(p.position(), 2481);
    p.seek_records(4995);
    p.step_forward();
    assert_eq!(p.position(), 5000, "nothing left that shows: the end");
    p.seek_records(5);
    p.step_back();
    assert_eq!(p.position(), 0);
    p.seek_seq(9);
    assert_eq!(p.position(), 10);
    p.seek_by_ms(-1_000_000);
    assert_eq!(p.position(), 1);
}

#[test]
fn background_snapshots_make_far_seeks_short() {
    let times: Vec<i64> = (0..(INTERVAL as i64 * 6)).map(|i| 1000 + i).collect();
    let r = records(&times);
    let mut p = Player::new(r.clone(), None, None, 1.0);
    for _ in 0..2000 {
        if p.snapshots_complete() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert!(p.snapshots_complete());
    assert_eq!(p.snapshot_count(), 7, "one at 0 and one every interval");
    // A far jump ahead restores a snapshot instead of folding from the start.
    p.seek_records(INTERVAL * 5 + 3);
    assert_eq!(p.position(), INTERVAL * 5 + 3);
    let direct =
        Transcript::from_records(None, &r[..INTERVAL * 5 + 3], crate::agents::stock());
    assert_eq!(p.transcript().items(), direct.items());
    assert_eq!(p.transcript().events(), direct.events());
}

#[test]
fn session_time_follows_the_clock() {
    let mut p = Player::new(records(&[1000, 2000, 3000]), None, None, 1.0);
    assert_eq!(p.session_time_ms(), None, "nothing applied yet");
    p.seek_ms(1500);
    assert_eq!(p.position(), 2);
    assert_eq!(p.session_time_ms(), Some(2500));
    p.seek_fraction(1.0);
    assert_eq!(p.session_time_ms(), Some(3000));
}

#[test]
fn turn_marks_follow_turn_starts() {
    let times: Vec<i64> = (0..30).map(|i| 1000 + i * 100).collect();
    let p = Player::new(records(&times), None, None, 1.0);
    assert_eq!(p.turn_marks(), &[0, 1000, 2000]);
    assert_eq!(p.events(), (0, 30));
}
