// SPDX-License-Identifier: MIT
// The test router of Chain Endpoints (test/fixtures/contracts): calls the fixture token and the
// Cosmos EVM bank precompile, so one transaction has nested frames: a STATICCALL to the bank
// precompile at 0x…0804 (`balances(address)`) and a CALL to the token's `transferFrom`.
pragma solidity ^0.8.20;

import {FixtureToken} from "./FixtureToken.sol";

/// The Cosmos EVM bank precompile (static precompile at 0x0000000000000000000000000000000000000804).
interface IBank {
    struct Balance {
        address contractAddress;
        uint256 amount;
    }

    function balances(address account) external view returns (Balance[] memory);
}

contract FixtureRouter {
    IBank public constant BANK = IBank(0x0000000000000000000000000000000000000804);
    FixtureToken public immutable token;

    /// One routed payment; `bankBalances` is how many coins the sender held in the bank module.
    event Routed(address indexed from, address indexed to, uint256 amount, uint256 bankBalances);

    constructor(FixtureToken token_) {
        token = token_;
    }

    /// Reads the sender's bank balances, then moves `amount` tokens from the sender (approved first) to `to`.
    function route(address to, uint256 amount) external returns (uint256 bankBalances) {
        IBank.Balance[] memory held = BANK.balances(msg.sender);
        token.transferFrom(msg.sender, to, amount);
        emit Routed(msg.sender, to, amount, held.length);
        return held.length;
    }

    /// The bank precompile's answer for `account`, as a view.
    function bankBalances(address account) external view returns (IBank.Balance[] memory) {
        return BANK.balances(account);
    }
}
