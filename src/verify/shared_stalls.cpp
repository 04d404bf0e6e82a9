#include "verify/shared_stalls.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "measure/client_report.hpp"

namespace gpupack::verify {

namespace {

struct Slow {
  double start_s, end_s, excess_ms;
  size_t client;
};

struct Event {
  double core_start, core_end;  // the time every member was slow in (or the slowest member's request)
  double excess_ms;             // the members' median time beyond their medians
  std::set<size_t> members;
};

double duration_ms(const RequestSpan& r) {
  return (r.end_s - r.start_s) * 1000.0;
}

std::vector<Slow> slow_requests(const std::vector<ClientSpans>& clients, const std::vector<bool>& counted) {
  std::vector<Slow> out;
  for (size_t c = 0; c < clients.size(); ++c) {
    if (!counted[c]) continue;
    std::vector<double> lat;
    for (const auto& r : clients[c].requests) lat.push_back(duration_ms(r));
    const double median = measure::quantile_of(lat, 0.5);
    const double threshold = std::max(kSlowFactor * median, median + kSlowMarginMs);
    for (const auto& r : clients[c].requests) {
      if (duration_ms(r) >= threshold) out.push_back({r.start_s, r.end_s, duration_ms(r) - median, c});
    }
  }
  std::sort(out.begin(), out.end(), [](const Slow& a, const Slow& b) { return a.start_s < b.start_s; });
  return out;
}

// Slow requests that overlap (transitively) form one candidate; it is a shared stall when at least two
// clients are in it.
std::vector<Event> events_of(const std::vector<Slow>& slow) {
  std::vector<Event> out;
  size_t i = 0;
  while (i < slow.size()) {
    size_t j = i + 1;
    double reach = slow[i].end_s;
    while (j < slow.size() && slow[j].start_s < reach) reach = std::max(reach, slow[j++].end_s);
    Event e{slow[i].start_s, slow[i].end_s, 0, {}};
    std::vector<double> excess;
    const Slow* slowest = &slow[i];
    for (size_t k = i; k < j; ++k) {
      e.members.insert(slow[k].client);
      e.core_start = std::max(e.core_start, slow[k].start_s);
      e.core_end = std::min(e.core_end, slow[k].end_s);
      excess.push_back(slow[k].excess_ms);
      if (slow[k].excess_ms > slowest->excess_ms) slowest = &slow[k];
    }
    if (!(e.core_end > e.core_start)) {  // a chain without a common moment: the slowest request stands for it
      e.core_start = slowest->start_s;
      e.core_end = slowest->end_s;
    }
    e.excess_ms = measure::quantile_of(excess, 0.5);
    if (e.members.size() >= 2) out.push_back(std::move(e));
    i = j;
  }
  return out;
}

// Whether one of `sorted` (by start) began and ended with the event's core, within a tolerance that grows
// with the core's length (request lines carry the program's own timing of its request).
bool aligned(const std::vector<RequestSpan>& sorted, const Event& e) {
  const double tol = 0.15 * (e.core_end - e.core_start) + 0.0003;
  auto it = std::lower_bound(sorted.begin(), sorted.end(), e.core_start - tol,
                             [](const RequestSpan& r, double t) { return r.start_s < t; });
  for (; it != sorted.end() && it->start_s <= e.core_start + tol; ++it) {
    if (std::fabs(it->end_s - e.core_end) <= tol) return true;
  }
  return false;
}

}  // namespace

SharedStalls find_shared_stalls(const std::vector<ClientSpans>& input) {
  SharedStalls out;
  // Spans that end before they start or are not finite say nothing of time; they are left out.
  std::vector<ClientSpans> clients;
  for (const auto& c : input) {
    ClientSpans kept{c.name, {}};
    for (const auto& r : c.requests) {
      if (std::isfinite(r.start_s) && std::isfinite(r.end_s) && r.end_s >= r.start_s)
        kept.requests.push_back(r);
    }
    clients.push_back(std::move(kept));
  }
  std::vector<bool> counted;
  for (const auto& c : clients) counted.push_back(c.requests.size() >= kMinRequests);
  const std::vector<Event> events = events_of(slow_requests(clients, counted));
  out.events = static_cast<int>(events.size());
  if (!events.empty()) {
    double sum = 0;
    for (const auto& e : events) {
      sum += e.excess_ms;
      out.max_ms = std::max(out.max_ms, e.excess_ms);
    }
    out.mean_ms = sum / static_cast<double>(events.size());
    size_t best = clients.size();
    int best_count = 0;
    for (size_t c = 0; c < clients.size(); ++c) {
      if (!counted[c]) continue;
      std::vector<RequestSpan> sorted = clients[c].requests;
      std::sort(sorted.begin(), sorted.end(),
                [](const RequestSpan& a, const RequestSpan& b) { return a.start_s < b.start_s; });
      int n = 0;
      for (const auto& e : events) n += !e.members.count(c) && aligned(sorted, e);
      if (n > best_count) {
        best = c;
        best_count = n;
      }
    }
    out.aligned_share = static_cast<double>(best_count) / static_cast<double>(events.size());
    if (best < clients.size() && out.aligned_share >= kAlignedShare) out.aligned_with = clients[best].name;
  }
  // The events' cores are disjoint and in time order (their candidates were), so a binary search finds
  // the one a request could overlap.
  for (size_t c = 0; c < clients.size(); ++c) {
    if (!counted[c]) continue;
    StalledClient s;
    s.name = clients[c].name;
    // The client the stalls line up with did not wait in them: its requests there are the stalls'
    // cause. It counts as hit only where it was slow itself (a member of the event).
    const bool culprit = out.aligned_with && *out.aligned_with == clients[c].name;
    std::vector<double> all, clear;
    size_t hit = 0;
    for (const auto& r : clients[c].requests) {
      all.push_back(duration_ms(r));
      auto e = std::upper_bound(events.begin(), events.end(), r.start_s,
                                [](double t, const Event& ev) { return t < ev.core_end; });
      if (e != events.end() && e->core_start < r.end_s && (!culprit || e->members.count(c))) {
        ++hit;
      } else {
        clear.push_back(duration_ms(r));
      }
    }
    s.hit_fraction = static_cast<double>(hit) / static_cast<double>(all.size());
    s.p99_ms = measure::quantile_of(all, 0.99);
    if (!clear.empty()) s.p99_without_ms = measure::quantile_of(clear, 0.99);
    out.clients.push_back(std::move(s));
  }
  return out;
}

}  // namespace gpupack::verify
