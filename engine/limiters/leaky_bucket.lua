-- Leaky bucket as nginx limit_req (and APISIX limit-req) decides, in milli-requests, one decision.
-- A request of p permits is p requests at the same instant.
-- KEYS[1] {<name>}:lb:<config fingerprint>[:<client>] = "<excess> <last_ms>": a changed config
--         decides on new keys. {<name>}:lb:cfg holds the config last seen; only a decision that
--         finds no state (a new config, a quiet client) reads it, to report the reset once.
-- ARGV: R = rate x 1000 (milli-requests leaked per period_ms), period_ms, 1000 x burst,
--       permits, now_ms (or 'redis'), ttl_ms, config ("<rate>/<period_ms>/<burst>") (the
--       engine forms them once per limiter: a full bucket drains in
--       ceil((burst + 1) x period / rate) ms, so that plus a grace covers every state)[, the
--       config key's TTL (a scratch limiter's, LimiterOptions::ttlCapMs; without it the config
--       key has no TTL)]
-- The script only decides; the engine works out remaining, the delay and the wait
-- (leaky_bucket_limiter.cpp). Returns one integer: granted 2 * e + reset (e the excess left),
-- refused -(2 * (elapsed * (1000 x burst + 2) + excess) + reset) - 1 with excess 1000 x burst
-- + 1 when the request found an empty bucket (a new key, or drained: elapsed is then 0), else
-- the state's excess and the ms since its last; the text "<allowed> <e or excess> <elapsed>
-- <reset> <at_ms>" with Redis's time (the engine does not know at_ms) or a refusal whose
-- packed figure would pass 2^52 (twice it, 2^53).
-- No local functions (a closure is made on every call), no math.max (a C call), numbers
-- converted by arithmetic (ARGV[i] + 0; tonumber() is a C call that parses its string twice; a
-- state that is not ours fails the script, which the engine reports with the limiter's name),
-- permits of '1' not converted at all; the state is written back from texts at hand (now from
-- ARGV, a lagging clock's last from the state), so a grant converts one number to text.
-- Integer divisions of operands below 2^53 (b > 0): a correctly rounded quotient's floor is
-- never too small and at most one too large.
local R = ARGV[1] + 0
local period = ARGV[2] + 0
local full = ARGV[3] + 0 -- 1000 x burst
local permits = 1
if ARGV[4] ~= '1' then
    permits = ARGV[4] + 0
end
local now, nowText = nil, ARGV[5]
local redisTime = nowText == 'redis'
if redisTime then
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
    nowText = string.format('%d', now)
else
    now = nowText + 0
end

-- x: the level this request finds: 0 for a new key (nginx's new node), else
-- max(E - floor(R * elapsed / period) + 1000, 0), elapsed 0 for a lagging clock (which keeps
-- last where it was). Once R * elapsed >= (E + 1000) * period the bucket is empty, which the
-- comparison tells exactly even past 2^53 (a product that large rounds to no less than 2^53,
-- above the other side); below it the quotient is exact and x >= 1.
local reset, x, excess, elapsed, keep = 0, 0, full + 1, 0, nowText
local state = redis.call('get', KEYS[1])
if state then
    local e, l = string.match(state, '^(%d+) (%-?%d+)$')
    local last = l + 0
    if now > last then
        elapsed = now - last
    else
        keep = l
    end
    local m = R * elapsed
    if m < (e + 1000) * period then
        local leaked = math.floor(m / period)
        if leaked * period > m then
            leaked = leaked - 1
        end
        excess = e + 0
        x = excess - leaked + 1000
    else
        elapsed = 0
    end
else
    local configKey = string.sub(KEYS[1], 1, string.find(KEYS[1], '}', 1, true)) .. ':lb:cfg'
    local seen = redis.call('get', configKey)
    if seen ~= ARGV[7] then
        if ARGV[8] then
            redis.call('set', configKey, ARGV[7], 'PX', ARGV[8])
        else
            redis.call('set', configKey, ARGV[7])
        end
        if seen then
            reset = 1
        end
    end
end

local e = x + 1000 * (permits - 1)
if e <= full then
    redis.call('set', KEYS[1], e .. ' ' .. keep, 'PX', ARGV[6])
    if not redisTime then
        return 2 * e + reset
    end
    return string.format('1 %d 0 %d %d', e, reset, now)
end
-- Refused, the state as it was.
local packed = elapsed * (full + 2) + excess
if not redisTime and packed < 4503599627370496 then
    return -(2 * packed + reset) - 1
end
return string.format('0 %d %d %d %d', excess, elapsed, reset, now)
