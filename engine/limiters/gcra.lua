-- GCRA (go-redis redis_rate, redis-cell), one decision, in exact integer arithmetic.
-- T = period_ms / rate is a fraction, so times are kept as q + r/rate ms with 0 <= r < rate;
-- every product stays below 2^53 within the parser's limits (see limits in limiter_spec).
-- KEYS[1] {<name>}:tat[:<client>] = "<q> <r> <rate>/<period>/<burst>"
-- ARGV: rate, period_ms, burst, permits, now_ms, ttl_ms, config ("<rate>/<period>/<burst>")
--       (the engine forms ttl_ms and config once per limiter: TAT never runs more than tau
--       ahead of now, so tau + 1 ms plus a grace covers every state; number-to-text
--       conversions in the script would cost Redis more than the rest of a decision)
-- Returns one packed integer (Limiter::parseReply, radix burst + 2): granted
-- 2 * remaining + reset, refused -(2 * ((retry_after_ms + 1) * radix + remaining) + reset) - 1;
-- with Redis's time (the engine does not know at_ms) or a value past 2^53 the text
-- "allowed retry_after_ms remaining at_ms config_reset 0".
-- No local functions: a closure is made on every call, which costs more than the arithmetic.
-- Numbers in ARGV are converted by arithmetic (ARGV[i] + 0, or an ARGV operand): tonumber() is a
-- C call that parses its string twice, and costs Redis half a GET more than the coercion.
-- Integer divisions of operands >= 0 below 2^53: a correctly rounded quotient's floor is never
-- too small and at most one too large.
local rate = ARGV[1] + 0
local period = ARGV[2] + 0
local burst = ARGV[3] + 0
local permits = ARGV[4] + 0
-- time: redis (limiter.h): ARGV[5] is 'redis' and the script reads Redis's clock.
local redisTime = ARGV[5] == 'redis'
local now
if redisTime then
    local t = redis.call('time')
    now = t[1] * 1000 + math.floor(t[2] / 1000)
else
    now = ARGV[5] + 0
end
local config = ARGV[7]

local reset = 0
local tq, tr = now, 0
local state = redis.call('get', KEYS[1])
if state then
    local q, r, cfg = string.match(state, '^(%-?%d+) (%d+) (%S+)$')
    if not q then
        return redis.error_reply('ratelab: ' .. KEYS[1] .. ' does not hold a GCRA state')
    end
    if cfg ~= config then
        reset = 1
        redis.call('del', KEYS[1])  -- written under another config
    else
        q, r = q + 0, r + 0
        if q > now or (q == now and r > 0) then
            tq, tr = q, r  -- tat = max(TAT, now)
        end
    end
end

local tauNum = burst * period  -- tau in units of 1/rate ms
local allowed, retry = 0, -1
if permits <= burst then
    -- new_tat = tat + permits * T
    local num = tr + permits * period
    local carry = math.floor(num / rate)
    if carry * rate > num then
        carry = carry - 1
    end
    local nq, nr = tq + carry, num - carry * rate
    -- allow_at = new_tat - tau
    local tauQ = math.floor(tauNum / rate)
    if tauQ * rate > tauNum then
        tauQ = tauQ - 1
    end
    local aq, ar = nq - tauQ, nr - (tauNum - tauQ * rate)
    if ar < 0 then
        ar = ar + rate
        aq = aq - 1
    end
    if aq < now or (aq == now and ar == 0) then
        -- The state may go once TAT has passed (absent = now): within ttl_ms.
        redis.call('set', KEYS[1], string.format('%d %d %s', nq, nr, config), 'PX', ARGV[6])
        allowed, retry, tq, tr = 1, 0, nq, nr
    else
        retry = aq + (ar > 0 and 1 or 0) - now
    end
end

-- remaining: floor((now + tau - tat) / T) at the TAT this decision leaves, in units of 1/rate ms.
local d = (now - tq) * rate - tr + tauNum
local remaining = 0
if d > 0 then
    remaining = math.floor(d / period)
    if remaining * period > d then
        remaining = remaining - 1
    end
end

if not redisTime then
    if allowed == 1 then
        return 2 * remaining + reset
    end
    local packed = 2 * ((retry + 1) * (burst + 2) + remaining) + reset
    if packed < 9007199254740992 then
        return -packed - 1
    end
end
return string.format('%d %d %d %d %d 0', allowed, retry, remaining, now, reset)
