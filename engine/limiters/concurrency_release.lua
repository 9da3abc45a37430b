-- Concurrency limiter: a request releases the slots its grant holds.
-- KEYS[1] {<name>}:leases[:<client>]; ARGV: slot id, permits, now_ms (or 'redis').
-- The grant's slots are <id>, <id>:1 .. <id>:<permits - 1>, all of one score (its lease
-- expiry). Returns 1 when the release comes late (the lease had run out: its slots are gone,
-- removed by a decision that found them expired, or their score is <= now), else 0.
local score = redis.call('zscore', KEYS[1], ARGV[1])
if not score then
    return 1
end
local now = ARGV[3]
if now == 'redis' then
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
end
local late = 0
if score + 0 <= now + 0 then
    late = 1
end
redis.call('zrem', KEYS[1], ARGV[1])
if ARGV[2] ~= '1' then
    for i = 1, ARGV[2] - 1 do
        redis.call('zrem', KEYS[1], ARGV[1] .. ':' .. i)
    end
end
return late
