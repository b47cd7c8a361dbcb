// SPDX-License-Identifier: MIT
// The test token of Chain Endpoints (test/fixtures/contracts): an ERC-20-like token with every
// kind of revert a decoder must explain: a custom error with arguments (transfer beyond the
// balance), Error(string) from a require (transferFrom beyond the allowance, mint by another
// account) and an arithmetic Panic (mint past 2^256 - 1: 0x11; ratio(x, 0): 0x12).
pragma solidity ^0.8.20;

contract FixtureToken {
    string public constant name = "Fixture Token";
    string public constant symbol = "FIX";
    uint8 public constant decimals = 18;

    /// The deployer: the only account that may mint (an immutable, so the runtime code has immutableReferences).
    address public immutable owner;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    /// A transfer of more than the sender holds.
    error InsufficientBalance(uint256 available, uint256 required);

    constructor(uint256 initialSupply) {
        owner = msg.sender;
        totalSupply = initialSupply;
        balanceOf[msg.sender] = initialSupply;
        emit Transfer(address(0), msg.sender, initialSupply);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        _move(msg.sender, to, amount);
        return true;
    }

    function approve(address spender, uint256 amount) external returns (bool) {
        allowance[msg.sender][spender] = amount;
        emit Approval(msg.sender, spender, amount);
        return true;
    }

    function transferFrom(address from, address to, uint256 amount) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= amount, "FixtureToken: allowance too low");
        allowance[from][msg.sender] = allowed - amount;
        _move(from, to, amount);
        return true;
    }

    /// Owner only (Error(string) otherwise); checked arithmetic: past 2^256 - 1 it is Panic(0x11).
    function mint(address to, uint256 amount) external {
        require(msg.sender == owner, "FixtureToken: only the owner mints");
        totalSupply += amount;
        balanceOf[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    /// amount / parts: Panic(0x12) when parts is 0.
    function ratio(uint256 amount, uint256 parts) external pure returns (uint256) {
        return amount / parts;
    }

    function _move(address from, address to, uint256 amount) private {
        uint256 available = balanceOf[from];
        if (available < amount) revert InsufficientBalance(available, amount);
        unchecked {
            balanceOf[from] = available - amount;
        }
        balanceOf[to] += amount;
        emit Transfer(from, to, amount);
    }
}
