-- Leaky bucket as nginx limit_req (and APISIX limit-req) decides, in milli-requests, one decision.
-- A request of p permits is p requests at the same instant.
-- KEYS[1] {<name>}:lb[:<client>] = "<excess> <last_ms> <rate>/<period_ms>/<burst>"
-- ARGV: rate, period_ms, burst, nodelay (0/1), permits, now_ms, ttl_ms,
--       config ("<rate>/<period_ms>/<burst>") (the engine forms ttl_ms and config once per
--       limiter: a full bucket, 1000 x burst, drains in ceil((burst + 1) x period / rate) ms, so
--       that plus a grace covers every state; number-to-text conversions in the script would
--       cost Redis more than the rest of a decision)
-- Returns one packed integer (Limiter::parseReply, radix burst + 2): granted
-- 2 * (delay_ms * radix + remaining) + reset, refused
-- -(2 * ((retry_after_ms + 1) * radix + remaining) + reset) - 1; with Redis's time (the engine
-- does not know at_ms) or a value past 2^53 the text
-- "allowed retry_after_ms remaining at_ms config_reset delay_ms".
-- No local functions: a closure is made on every call, which costs more than the arithmetic;
-- no math.max either (a C call), and the state is written back from texts at hand (now from
-- ARGV, a lagging clock's last from the state) so a grant converts one number to text.
-- Numbers in ARGV are converted by arithmetic (ARGV[i] + 0, or an ARGV operand): tonumber() is a
-- C call that parses its string twice, and costs Redis half a GET more than the coercion.
-- Integer divisions of operands below 2^53 (in magnitude, b > 0): a correctly rounded
-- quotient's floor is never too small and at most one too large (its ceil never too large, at
-- most one too small).
local rate = ARGV[1] + 0
local period = ARGV[2] + 0
local burst = ARGV[3] + 0
local nodelay = ARGV[4] == '1'
local permits = 1
if ARGV[5] ~= '1' then
    permits = ARGV[5] + 0
end
-- time: redis (limiter.h): ARGV[6] is 'redis' and the script reads Redis's clock.
local redisTime = ARGV[6] == 'redis'
local now, nowText
if redisTime then
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
    nowText = string.format('%d', now)
else
    now, nowText = ARGV[6] + 0, ARGV[6]
end
local config = ARGV[8]
local R = rate * 1000  -- milli-requests leaked per period_ms

local reset = 0
local excess, last, lastText = nil, nil, nil
local state = redis.call('get', KEYS[1])
if state then
    local e, l, cfg = string.match(state, '^(%d+) (%-?%d+) (%S+)$')
    if not e then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a leaky bucket state')
    end
    if cfg ~= config then
        reset = 1
        redis.call('del', KEYS[1])
    else
        excess, last, lastText = e + 0, l + 0, l
    end
end

-- x: the level this request finds, new key = 0 (nginx's new node), else
-- max(E - floor(R * elapsed / period) + 1000, 0). Past the full drain time
-- ceil((E + 1000) * period / R) x is 0, which keeps R * elapsed below 2^53 whatever the gap.
-- elapsed: ms since last, 0 for a lagging clock (a refusal needs it too; only a key with
-- state can be refused, see below).
local x, elapsed = 0, 0
if excess then
    local n = (excess + 1000) * period
    local drainMs = math.ceil(n / R)
    if drainMs * R < n then
        drainMs = drainMs + 1
    end
    if now > last then
        elapsed = now - last
    end
    if elapsed < drainMs then
        local m = R * elapsed
        local leaked = math.floor(m / period)
        if leaked * period > m then
            leaked = leaked - 1
        end
        x = excess - leaked + 1000
        if x < 0 then
            x = 0
        end
    end
end
local e = x + 1000 * (permits - 1)

local allowed, retry, delay = 0, -1, 0
local remaining
if permits <= burst + 1 and e <= 1000 * burst then
    allowed, retry = 1, 0
    remaining = math.floor((1000 * burst - e) / 1000)
    if remaining * 1000 > 1000 * burst - e then
        remaining = remaining - 1
    end
    local keep = nowText
    if last and last > now then
        keep = lastText  -- a lagging clock never moves last backwards
    end
    redis.call('set', KEYS[1], e .. ' ' .. keep .. ' ' .. config, 'PX', ARGV[7])
    if not nodelay then
        local m = e * period
        delay = math.floor(m / R)
        if delay * R > m then
            delay = delay - 1
        end
    end
elseif permits <= burst + 1 then
    -- Refused within the burst: the state held excess (a new or reset key finds x = 0, and
    -- e = 1000 * (permits - 1) fits). The smallest whole wait w >= 1 at which the level has
    -- leaked enough:
    -- E - floor(R * (elapsed + w) / period) + 1000 <= 1000 * (burst - permits + 1).
    local n = (excess + 1000 - 1000 * (burst - permits + 1)) * period
    local wait = math.ceil(n / R)
    if wait * R < n then
        wait = wait + 1
    end
    retry = wait - elapsed
    if retry < 1 then
        retry = 1
    end
end
if allowed == 0 then
    -- A refusal leaves the state as it was: floor((1000 * burst - x) / 1000) + 1 requests fit.
    local free = 1000 * burst - x
    remaining = math.floor(free / 1000)
    if remaining * 1000 > free then
        remaining = remaining - 1
    end
    remaining = remaining + 1
    if remaining < 0 then
        remaining = 0
    end
end

if not redisTime then
    local packed
    if allowed == 1 then
        packed = 2 * (delay * (burst + 2) + remaining) + reset
    else
        packed = 2 * ((retry + 1) * (burst + 2) + remaining) + reset
    end
    if packed < 9007199254740992 then
        return allowed == 1 and packed or -packed - 1
    end
end
return string.format('%d %d %d %d %d %d', allowed, retry, remaining, now, reset, delay)
